//! Giving `prompt` and `agent` hooks their model, once every file is read: the `"model"`
//! block of the managed file, else the user's (a project's is a config error in
//! `parse.rs`). A model hook with no model configured still loads (its runs fail saying
//! where to configure one, and `onError` applies), with a warning `check` shows.

use super::paths::ConfigPaths;
use super::raw::MODEL_EXAMPLE;
use super::types::{Handler, Hook, ModelConfig};
use hookhost_protocol::ConfigError;
use std::sync::Arc;

/// Sets the model of every model hook in `hooks`; a warning per hook when there is none.
pub(super) fn give_model(
    hooks: &mut [Hook],
    model: Option<&Arc<ModelConfig>>,
    paths: &ConfigPaths,
) -> Vec<ConfigError> {
    let mut warnings = Vec::new();
    for hook in hooks.iter_mut() {
        if let Handler::Model { model: slot, .. } = &mut hook.handler {
            slot.clone_from(&model.cloned());
            if model.is_none() {
                warnings.push(ConfigError {
                    file: hook.file.clone(),
                    hook: Some(hook.label()),
                    message: no_model_message(hook.handler.kind().as_str(), paths),
                });
            }
        }
    }
    warnings
}

/// What a model hook with no model configured says: what is missing and where it goes.
pub fn no_model_message(kind: &str, paths: &ConfigPaths) -> String {
    let file = paths.global_file.as_ref().map_or_else(
        || "~/.coding-agent/hooks.json".to_string(),
        |f| f.display().to_string(),
    );
    no_model_in(kind, &file)
}

/// [`no_model_message`] for the user's file `file`.
pub fn no_model_in(kind: &str, file: &str) -> String {
    format!(
        "this {kind} hook asks a model, and no model is configured: add a top-level {MODEL_EXAMPLE} to your own file {file} (a project's file cannot set it); until then the hook fails every time as a hook that cannot start"
    )
}
