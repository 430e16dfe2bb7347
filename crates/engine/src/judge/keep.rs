//! How far a hook's answer is trusted: what each [`TrustLevel`] keeps of its effects
//! ([`keeps`], an allowlist) and the last step of judging ([`keep`]).

use super::{EffectKind, EffectSet, HookFacts, Judgement, Outcome, Verdict};

use hookhost_protocol::TrustLevel;

/// The effects a trust level keeps: an allowlist, so an effect added to
/// [`Effects`](crate::agent::Effects) is dropped for untrusted hooks until it is named here.
pub const fn keeps(level: TrustLevel) -> EffectSet {
    match level {
        TrustLevel::Trusted => EffectSet::ALL,
        TrustLevel::Untrusted => EffectSet::of(&[EffectKind::Block]),
    }
}

/// The effects a re-run on a rewritten call keeps (`Runner::fire`'s second pass): a block.
pub const REJUDGE_KEEPS: EffectSet = EffectSet::of(&[EffectKind::Block]);

/// Keeps what the hook's trust level (and a re-run) allows of a judgement, the last step of
/// `decision::judge`. An untrusted hook's block carries a fixed reason: its own text stays in
/// the record for the user; neither it nor the hook's command line, both the untrusted
/// author's words, reach the model.
pub(crate) fn keep(t: &HookFacts, mut j: Judgement) -> Judgement {
    let mut allowed = keeps(t.trust);
    if t.rejudge {
        allowed = allowed.intersect(REJUDGE_KEEPS);
    }
    let decided = matches!(j.outcome, Outcome::Block | Outcome::Force | Outcome::Allow);
    let (mut effects, dropped) = j.effects.keep(allowed);
    if t.trust == TrustLevel::Untrusted
        && let Verdict::Block(_) = effects.verdict
    {
        effects.verdict = Verdict::Block(format!(
            "blocked by the untrusted project {} hook {}; its own reason is withheld until you review it and run `hookhost trust`",
            t.kind.as_str(),
            t.id
        ));
    }
    if !dropped.is_empty() {
        let whose = if t.rejudge {
            "re-run on the rewritten call: only a block counts"
        } else {
            "untrusted hook: only its pass/block decision is used"
        };
        let note = format!("{whose} (ignored: {dropped})");
        j.message = Some(match j.message.take() {
            Some(m) => format!("{m}; {note}"),
            None => note,
        });
        if decided && effects.verdict == Verdict::Pass {
            j.outcome = Outcome::Warn;
        }
        j.row = j.row.reduced();
    }
    j.effects = effects;
    j
}

#[cfg(test)]
#[path = "keep_tests.rs"]
mod tests;
