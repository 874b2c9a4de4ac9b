//! The `contactlab` subcommands, as library functions the binary calls.

pub mod compare;
pub mod contact;
pub mod field;
pub mod inspect;
pub mod simulate;
pub mod sweep;
pub mod view;

/// The message of an error and its causes, each said once: what the command line prints after
/// `error: ` (and the Python package's exceptions carry).
pub fn error_message(e: &anyhow::Error) -> String {
    let mut message = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if message.contains(&text) {
            continue;
        }
        if !message.is_empty() {
            message.push_str(": ");
        }
        message.push_str(&text);
    }
    message
}
