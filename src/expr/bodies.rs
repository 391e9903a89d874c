//! Planar bodies and revolute joints written on top of the constrained form
//! (`super::constrained`), in body coordinates (x, y, φ per body) as
//! Gil, Sanfelice & Nikravesh (LLM) §2 build the double pendulum:
//!
//! ```text
//! body crank: mass m1, inertia J1, at (r/2, 0, 0)     # centre of mass (x, y) and angle φ
//! body rod: mass m2, inertia J2, at (r + l/2, 0, 0)
//! revolute O: crank(-r/2, 0), ground(0, 0)           # body-frame points that coincide
//! revolute A: crank(r/2, 0), rod(-l/2, 0)
//! gravity g                                          # −m g on every body's y
//! ```
//!
//! Each line is rewritten in place (same line, statements joined by `;`) into the
//! textbook statements: a body declares the coordinates `x<name>`, `y<name>`,
//! `φ<name>`, its mass and its initial pose; a revolute joint the two constraints
//! `<joint>_x`, `<joint>_y`: r_i + A(φ_i) s_i = r_j + A(φ_j) s_j; `gravity` a force on
//! every body. Other statements (forces, torques, constraints such as a driver
//! `constraint drive: φcrank = w*t`, outputs) are written as usual. The links are
//! drawn from the joints: a rod from each body's centre to each of its joint points.

use super::error::{ErrorKind, ExprError};
use super::lexer::Span;

/// Whether a line is a body, joint or gravity statement.
fn keyword(line: &str) -> Option<&'static str> {
    let l = line.trim_start();
    ["body", "revolute", "gravity"].into_iter().find(|k| {
        l.strip_prefix(k).is_some_and(|rest| {
            rest.starts_with([' ', '\t']) && !rest.trim_start().starts_with(['=', '\'', '(', '['])
        })
    })
}

/// Whether the text uses bodies or joints.
pub fn has_bodies(text: &str) -> bool {
    text.lines().any(|l| keyword(l).is_some())
}

/// Splits at top-level commas.
fn split_top(s: &str) -> Vec<String> {
    let (mut depth, mut out, mut cur) = (0i32, Vec::new(), String::new());
    for ch in s.chars() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    out.push(cur.trim().to_string());
    out
}

fn fail(message: String, start: usize, len: usize) -> ExprError {
    ExprError::new(
        ErrorKind::Constrained { message },
        Span::new(start, start + len.max(1)),
    )
}

struct Body {
    name: String,
    mass: String,
}

/// `name(sx, sy)` → (name, sx, sy).
fn anchor(s: &str) -> Option<(String, String, String)> {
    let open = s.find('(')?;
    let inner = s.get(open + 1..s.rfind(')')?)?;
    let parts = split_top(inner);
    if parts.len() != 2 {
        return None;
    }
    Some((
        s[..open].trim().to_string(),
        parts[0].clone(),
        parts[1].clone(),
    ))
}

/// The text with body, joint and gravity lines rewritten (see the module doc).
pub fn rewrite(text: &str) -> Result<String, ExprError> {
    let mut bodies: Vec<Body> = Vec::new();
    // First pass: the bodies (joints may name bodies declared below them).
    let mut offset = 0;
    for line in text.split('\n') {
        if keyword(line) == Some("body") {
            let rest = line.trim_start().trim_start_matches("body").trim();
            let name = rest.split(':').next().unwrap_or("").trim().to_string();
            let fields = split_top(rest.split_once(':').map_or("", |x| x.1));
            let mass = fields
                .iter()
                .find_map(|f| f.strip_prefix("mass "))
                .map(|m| m.trim().to_string());
            let at = line.find("body").unwrap_or(0) + offset;
            let (Some(mass), true) = (mass, !name.is_empty()) else {
                return Err(fail(
                    "write a body as: body name: mass m, inertia J, at (x, y, φ)".into(),
                    at,
                    line.len(),
                ));
            };
            bodies.push(Body { name, mass });
        }
        offset += line.len() + 1;
    }
    let mut out = Vec::new();
    let mut draws = Vec::new();
    let mut offset = 0;
    for line in text.split('\n') {
        let start = offset + line.len() - line.trim_start().len();
        offset += line.len() + 1;
        let Some(k) = keyword(line) else {
            out.push(line.to_string());
            continue;
        };
        let rest = line.trim_start()[k.len()..].trim();
        // A trailing comment is kept out of the fields.
        let rest = rest.split('#').next().unwrap_or("").trim();
        match k {
            "gravity" => {
                let forces: Vec<String> = bodies
                    .iter()
                    .map(|b| format!("force y{} = -({})*({rest})", b.name, b.mass))
                    .collect();
                out.push(forces.join("; "));
            }
            "body" => {
                let (name, fields) = rest.split_once(':').unwrap_or((rest, ""));
                let name = name.trim();
                let fields = split_top(fields);
                let get = |key: &str| {
                    fields
                        .iter()
                        .find_map(|f| f.strip_prefix(key).map(|v| v.trim().to_string()))
                };
                let (Some(mass), Some(inertia), Some(at)) =
                    (get("mass "), get("inertia "), get("at "))
                else {
                    return Err(fail(
                        format!(
                            "body {name} needs mass, inertia and at (x, y, φ): body {name}: \
                             mass m, inertia J, at (0, 0, 0)"
                        ),
                        start,
                        line.trim().len(),
                    ));
                };
                let pose = split_top(at.trim().trim_start_matches('(').trim_end_matches(')'));
                if pose.len() != 3 {
                    return Err(fail(
                        format!("body {name}: at (x, y, φ) takes three values"),
                        start,
                        line.trim().len(),
                    ));
                }
                out.push(format!(
                    "coordinates x{name}, y{name}, φ{name}; mass {mass}, {mass}, {inertia}; \
                     x{name}(0) = {}, y{name}(0) = {}, φ{name}(0) = {}",
                    pose[0], pose[1], pose[2]
                ));
            }
            _ => {
                let (name, ends) = rest.split_once(':').unwrap_or(("", rest));
                let name = name.trim();
                let ends = split_top(ends);
                let parsed: Vec<_> = ends.iter().filter_map(|e| anchor(e)).collect();
                if name.is_empty() || ends.len() != 2 || parsed.len() != 2 {
                    return Err(fail(
                        "write a revolute joint as: revolute A: body1(sx, sy), body2(sx, sy) \
                         (or ground(x, y))"
                            .into(),
                        start,
                        line.trim().len(),
                    ));
                }
                let mut point = Vec::new();
                for (body, sx, sy) in &parsed {
                    if body == "ground" {
                        point.push((format!("({sx})"), format!("({sy})")));
                        continue;
                    }
                    if !bodies.iter().any(|b| &b.name == body) {
                        let at = line
                            .find(body.as_str())
                            .map_or(start, |i| offset - line.len() - 1 + i);
                        let known: Vec<&str> = bodies.iter().map(|b| b.name.as_str()).collect();
                        return Err(fail(
                            format!(
                                "joint {name}: there is no body \"{body}\"; the bodies are {} \
                                 (and ground)",
                                known.join(", ")
                            ),
                            at,
                            body.len(),
                        ));
                    }
                    let (x, y, p) = (format!("x{body}"), format!("y{body}"), format!("φ{body}"));
                    let px = format!("{x} + cos({p})*({sx}) - sin({p})*({sy})");
                    let py = format!("{y} + sin({p})*({sx}) + cos({p})*({sy})");
                    draws.push(format!("draw rod({x}, {y}, {px}, {py})"));
                    point.push((px, py));
                }
                out.push(format!(
                    "constraint {name}_x: {} = {}; constraint {name}_y: {} = {}",
                    point[0].0, point[1].0, point[0].1, point[1].1
                ));
            }
        }
    }
    out.extend(draws);
    Ok(out.join("\n"))
}
