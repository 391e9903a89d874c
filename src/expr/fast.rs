//! `fast` lines of the system text: which states the slow/fast scheme treats as fast
//! (Gil, Sanfelice & Nikravesh 2013, the partition y = (x, z) of eqs. 17–18).
//!
//! ```text
//! fast z, w          # states z and w
//! fast q'            # the velocity of a second-order state q
//! fast u[3], u[4]    # elements of an indexed family
//! fast u             # every element u[i] of a family
//! ```
//!
//! A line is a fast line when it starts with `fast`, a blank and a letter (so a state
//! or definition called `fast`, as in `fast' = …`, is still allowed). [`take_fast_lines`]
//! blanks those lines out of the text (same length, so every other statement keeps its
//! line and column) and returns the names with where they were written; [`resolve`]
//! turns them into state indices once the states are known, and a name that is not a
//! state is an error located at it.

use super::error::{suggest, ErrorKind, ExprError};
use super::lexer::Span;

/// A name written on a fast line (blanks removed, e.g. `u[3]`, `q'`) and where.
#[derive(Debug, Clone, PartialEq)]
pub struct FastName {
    pub name: String,
    pub span: Span,
}

/// Splits the fast lines off `text` (see the module docs): the text with those lines
/// blanked, and the names on them in order.
pub fn take_fast_lines(text: &str) -> (String, Vec<FastName>) {
    let mut statements = text.as_bytes().to_vec();
    let mut names = Vec::new();
    let mut line_start = 0;
    for line in text.split('\n') {
        let line_end = line_start + line.len();
        let indent = line.len() - line.trim_start().len();
        if let Some(full) = fast_body(&line[indent..]) {
            let mut at = line_end - full.len();
            // A comment ends the line's list.
            let body = full.split('#').next().unwrap_or("");
            for item in body.split(',') {
                let lead = item.len() - item.trim_start().len();
                let trimmed = item.trim();
                if !trimmed.is_empty() {
                    let start = at + lead;
                    names.push(FastName {
                        name: trimmed.chars().filter(|c| !c.is_whitespace()).collect(),
                        span: Span {
                            start,
                            end: start + trimmed.len(),
                        },
                    });
                }
                at += item.len() + 1;
            }
            statements[line_start..line_end].fill(b' ');
        }
        line_start = line_end + 1;
    }
    // Only whole lines (between ASCII newlines) were replaced by ASCII blanks.
    let statements = String::from_utf8(statements).unwrap_or_default();
    (statements, names)
}

/// What follows `fast ` on a fast line, or None if the line is not one.
fn fast_body(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("fast")?;
    let body = rest.trim_start();
    let blank = rest.len() > body.len();
    (blank && body.starts_with(char::is_alphabetic)).then_some(body)
}

/// The state indices the fast names mark, sorted, each once: a state's own name, or a
/// family's name for all its elements (`u` for `u[1]` … `u[N]`, `u'` for their
/// velocities). A name that is no state is an error naming it, with the closest state.
pub fn resolve(names: &[FastName], states: &[String]) -> Result<Vec<usize>, ExprError> {
    let mut fast = Vec::new();
    for n in names {
        let exact = states.iter().position(|s| *s == n.name);
        let found: Vec<usize> = match exact {
            Some(i) => vec![i],
            None => family(&n.name, states),
        };
        if found.is_empty() {
            let list = states
                .iter()
                .take(12)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            let more = if states.len() > 12 { ", …" } else { "" };
            let hint = suggest(&n.name, states.iter().map(String::as_str))
                .map(|s| format!("did you mean \"{s}\"?"));
            return Err(ExprError::new(
                ErrorKind::Expected {
                    expected: format!("a state after \"fast\" (the states are {list}{more})"),
                    found: format!("\"{}\", which is not a state", n.name),
                    hint,
                },
                n.span,
            ));
        }
        fast.extend(found);
    }
    fast.sort_unstable();
    fast.dedup();
    Ok(fast)
}

/// The states `base[i]` (with the same primes as `name`, e.g. `u'` → `u[i]'`).
fn family(name: &str, states: &[String]) -> Vec<usize> {
    let base = name.trim_end_matches('\'');
    let primes = &name[base.len()..];
    if base.contains('[') {
        return Vec::new();
    }
    states
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            s.strip_prefix(base)
                .and_then(|r| r.strip_prefix('['))
                .and_then(|r| r.strip_suffix(primes))
                .is_some_and(|r| r.ends_with(']') && !r.ends_with("]'"))
        })
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_lines_are_blanked_and_keep_every_other_position() {
        let text = "x' = v\n  fast v, w # spring\nv' = -x\n";
        let (rest, names) = take_fast_lines(text);
        assert_eq!(rest.len(), text.len());
        assert_eq!(rest.lines().nth(1).unwrap().trim(), "");
        assert_eq!(rest.lines().nth(2), Some("v' = -x"));
        let got: Vec<&str> = names.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(got, ["v", "w"]);
        assert_eq!(&text[names[1].span.start..names[1].span.end], "w");
    }

    #[test]
    fn a_state_called_fast_is_not_a_fast_line() {
        let text = "fast' = -fast\nfast(0) = 1";
        let (rest, names) = take_fast_lines(text);
        assert_eq!(rest, text);
        assert!(names.is_empty());
    }

    #[test]
    fn a_family_name_marks_its_elements_with_the_same_primes() {
        let states: Vec<String> = ["u[1]", "u[2]", "u[1]'", "u[2]'", "uu"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(family("u", &states), [0, 1]);
        assert_eq!(family("u'", &states), [2, 3]);
    }
}
