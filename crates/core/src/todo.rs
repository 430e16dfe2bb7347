//! The model's todo list and [`TodoGuard`]: a final answer with open items gets a continue
//! message before any Stop hook runs.

use serde::{Deserialize, Serialize};

/// Where a todo item stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on (still open).
    InProgress,
    /// Done: the only status TodoGuard lets through.
    Completed,
}

/// One item of the model's todo list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TodoItem {
    /// What to do.
    pub content: String,
    /// Where it stands.
    pub status: TodoStatus,
}

/// The model's todo list, replaced whole by each `todo_write` call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TodoList {
    items: Vec<TodoItem>,
}

impl TodoList {
    /// Replaces every item (what `todo_write` does).
    pub fn replace(&mut self, items: Vec<TodoItem>) {
        self.items = items;
    }

    /// The items not completed, in order.
    pub fn open(&self) -> Vec<&TodoItem> {
        self.items
            .iter()
            .filter(|i| i.status != TodoStatus::Completed)
            .collect()
    }

    /// "N todos, M open": what `todo_write` answers the model.
    pub fn summary(&self) -> String {
        format!("{} todos, {} open", self.items.len(), self.open().len())
    }
}

/// Checks the todo list at a final answer.
#[derive(Debug, Default, Clone, Copy)]
pub struct TodoGuard;

impl TodoGuard {
    /// The continue message when items are open, else `None`.
    pub fn check(&self, todos: &TodoList) -> Option<String> {
        let open = todos.open();
        if open.is_empty() {
            return None;
        }
        let list: Vec<String> = open.iter().map(|i| format!("- {}", i.content)).collect();
        Some(format!(
            "Your todo list still has {} open item(s); finish them or mark them completed before stopping:\n{}",
            open.len(),
            list.join("\n")
        ))
    }
}
