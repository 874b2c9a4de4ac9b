//! Scene files (TOML): parsing and validation into typed bodies and settings.
