//! [`HttpSpawner`]: POSTs the payload to a hook's `url`.

use super::{SpawnOutput, SpawnRequest, Spawner};
use async_trait::async_trait;
use std::time::Duration;

/// Runs `url` hooks.
#[derive(Debug, Default, Clone)]
pub struct HttpSpawner;

#[async_trait]
impl Spawner for HttpSpawner {
    async fn spawn(&self, req: SpawnRequest) -> SpawnOutput {
        SpawnOutput::spawn_failed(
            format!(
                "HTTP hooks ({}) are not supported by this build yet; use a command hook",
                req.handler.display()
            ),
            Duration::ZERO,
        )
    }
}
