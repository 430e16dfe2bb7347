//! The model's todo list and [`TodoGuard`]: a final answer with open items gets a continue
//! message before any Stop hook runs.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TodoItem {
    pub content: String,
    pub status: TodoStatus,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TodoList {
    items: Vec<TodoItem>,
}

impl TodoList {
    pub fn replace(&mut self, items: Vec<TodoItem>) {
        self.items = items;
    }

    pub fn open(&self) -> Vec<&TodoItem> {
        self.items
            .iter()
            .filter(|i| i.status != TodoStatus::Completed)
            .collect()
    }

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
