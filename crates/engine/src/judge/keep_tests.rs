//! What each trust level keeps of a hook's answer: an allowlist, checked kind by kind, so an
//! effect added to `Effects` is dropped for untrusted hooks until `trust::keeps` names it.

use super::*;
use crate::agent::Effects;
use crate::config::{HookId, HookKind, OnError, Scope};
use crate::event::Event;

fn facts(level: TrustLevel, rejudge: bool) -> HookFacts<'static> {
    let id = HookId {
        scope: Scope::Project,
        event: Event::PreToolUse,
        index: 0,
        source: 0,
    };
    HookFacts {
        trust: level,
        rejudge,
        ..HookFacts::new(id, HookKind::Wasm, OnError::Warn, 1000)
    }
}

fn judged(kind: EffectKind) -> Judgement {
    Judgement {
        outcome: match kind {
            EffectKind::Block => Outcome::Block,
            EffectKind::Force => Outcome::Force,
            _ => Outcome::Pass,
        },
        effects: Effects::only(kind),
        message: None,
        row: crate::judge::Row::Table {
            condition: crate::judge::Condition::Exit0,
            cell: crate::judge::Cell::Pass,
            via: crate::judge::Via::Json,
            reduced: false,
        },
    }
}

#[test]
fn a_trusted_hook_keeps_every_kind_of_effect() {
    for kind in EffectKind::ALL {
        let j = keep(&facts(TrustLevel::Trusted, false), judged(kind));
        assert_eq!(j.effects, Effects::only(kind), "{kind:?}");
        assert_eq!(j.message, None, "{kind:?}");
    }
}

#[test]
fn an_untrusted_hook_keeps_only_a_block_with_a_fixed_reason() {
    for kind in EffectKind::ALL {
        let j = keep(&facts(TrustLevel::Untrusted, false), judged(kind));
        if kind == EffectKind::Block {
            let Verdict::Block(reason) = &j.effects.verdict else {
                panic!("the block was dropped");
            };
            assert!(reason.contains("untrusted"), "{reason}");
            assert!(
                !reason.contains("block effect"),
                "its own words reached the model"
            );
            assert_eq!(j.effects.kinds(), EffectSet::of(&[EffectKind::Block]));
        } else {
            assert_eq!(j.effects, Effects::pass(), "{kind:?} was kept");
            assert!(j.message.unwrap().contains(kind.as_str()), "{kind:?}");
            assert_ne!(j.outcome, Outcome::Force, "{kind:?}");
        }
    }
    // The allowlist itself: nothing but a block, whatever is added to `EffectKind`.
    let kept: Vec<_> = keeps(TrustLevel::Untrusted).kinds().collect();
    assert_eq!(kept, [EffectKind::Block]);
}

#[test]
fn a_rejudged_hook_keeps_only_a_block_at_every_level() {
    for level in [TrustLevel::Trusted, TrustLevel::Untrusted] {
        for kind in EffectKind::ALL {
            let j = keep(&facts(level, true), judged(kind));
            let expect = if kind == EffectKind::Block {
                EffectSet::of(&[EffectKind::Block])
            } else {
                EffectSet::NONE
            };
            assert_eq!(j.effects.kinds(), expect, "{level:?} {kind:?}");
        }
    }
}
