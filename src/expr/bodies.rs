//! Planar bodies and revolute joints written on top of the constrained form
//! (`super::constrained`), in body coordinates (x, y, φ per body) as
//! Gil, Sanfelice & Nikravesh (LLM) §2 build the double pendulum:
//!
//! ```text
//! body crank: mass m1, inertia J1, at (r/2, 0, 0)     # centre of mass (x, y) and angle φ
//! body rod: mass m2, inertia J2, at (r + l/2, 0, 0)
//! revolute O: crank(-r/2, 0), ground(0, 0)           # body-frame points that coincide
//! revolute A: crank(r/2, 0), rod(-l/2, 0)
//! translational P: ground(0, 0), slider(0, 0), axis(1, 0)   # slides along the axis
//! spring S: ground(0, 0), slider(0, 0), k 100, c 2, length 0.5
//! gravity g                                          # −m g on every body's y
//! ```
//!
//! A translational joint keeps point s_j of body j on the line through point s_i of
//! body i along `axis` (body i's frame, or the ground's) and locks the relative angle:
//! (p_j − p_i)·A_i n = 0 and φ_j − φ_i = 0 (constraints `<joint>_n`, `<joint>_φ`). A
//! spring-damper between two points pulls with F = k (|d| − L0) + c |d|˙ along
//! d = p_b − p_a, +F on a and −F on b, with the torques (∂(A s)/∂φ)·F about each centre.
//!
//! Each line is rewritten in place (same line, statements joined by `;`) into the
//! textbook statements: a body declares the coordinates `x<name>`, `y<name>`,
//! `φ<name>`, its mass and its initial pose; a revolute joint the two constraints
//! `<joint>_x`, `<joint>_y`: r_i + A(φ_i) s_i = r_j + A(φ_j) s_j; `gravity` a force on
//! every body declared anywhere in the text. Other statements (forces, torques, constraints such as a driver
//! `constraint drive: φcrank = w*t`, outputs) are written as usual. The links are
//! drawn from the joints: a rod from each body's centre to each of its joint points, and
//! a body held at one point only on to that point mirrored through its centre (the
//! free end of a uniform link: the language declares no body lengths).

use super::error::{ErrorKind, ExprError};
use super::lexer::Span;

/// Whether a line is a body, joint or gravity statement.
fn keyword(line: &str) -> Option<&'static str> {
    let l = line.trim_start();
    super::parser::BODY_STATEMENT_WORDS
        .iter()
        .copied()
        .find(|k| {
            l.strip_prefix(k).is_some_and(|rest| {
                rest.starts_with([' ', '\t'])
                    && !rest.trim_start().starts_with(['=', '\'', '(', '['])
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

/// Position (x, y) and velocity (ẋ, ẏ) texts of point (sx, sy) of `body` (or a ground
/// point), and the body's coordinate names, checked to exist.
#[allow(clippy::type_complexity)]
fn point_of(
    bodies: &[Body],
    joint: &str,
    (body, sx, sy): &(String, String, String),
    at: usize,
) -> Result<
    (
        String,
        String,
        String,
        String,
        Option<(String, String, String)>,
    ),
    ExprError,
> {
    if body == "ground" {
        return Ok((
            format!("({sx})"),
            format!("({sy})"),
            "0".into(),
            "0".into(),
            None,
        ));
    }
    if !bodies.iter().any(|b| &b.name == body) {
        let known: Vec<&str> = bodies.iter().map(|b| b.name.as_str()).collect();
        return Err(fail(
            format!(
                "joint {joint}: there is no body \"{body}\"; the bodies are {} (and ground)",
                known.join(", ")
            ),
            at,
            body.len(),
        ));
    }
    let (x, y, p) = (format!("x{body}"), format!("y{body}"), format!("φ{body}"));
    let px = format!("{x} + cos({p})*({sx}) - sin({p})*({sy})");
    let py = format!("{y} + sin({p})*({sx}) + cos({p})*({sy})");
    let vx = format!("{x}' + (-sin({p})*({sx}) - cos({p})*({sy}))*{p}'");
    let vy = format!("{y}' + (cos({p})*({sx}) - sin({p})*({sy}))*{p}'");
    Ok((px, py, vx, vy, Some((x, y, p))))
}

/// The text with body, joint and gravity lines rewritten (see the module doc).
pub fn rewrite(text: &str) -> Result<String, ExprError> {
    // A misspelt `body` would otherwise be reported as a missing body in its joints.
    super::parser::check_statement_words(text)?;
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
    // Revolute joints (body a, body b, world point) and torsion springs (body a, body b),
    // for drawing each torsion spring as a coil at the hinge it acts across.
    let mut hinges: Vec<(String, String, String, String)> = Vec::new();
    let mut torsions: Vec<(String, String)> = Vec::new();
    // Each body's centre (x, y) and the points its rods reach.
    #[allow(clippy::type_complexity)]
    let mut reached: Vec<(String, String, Vec<(String, String)>)> = Vec::new();
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
            "torsion" => {
                // torsion T: a, b, k K, c C, angle θ0 — τ = k(φb − φa − θ0) + c(φ̇b − φ̇a),
                // −τ on b, +τ on a (a may be ground).
                let (name, fields) = rest.split_once(':').unwrap_or(("", rest));
                let name = name.trim();
                let fields = split_top(fields);
                let get = |key: &str| {
                    fields[2.min(fields.len())..]
                        .iter()
                        .find_map(|f| f.strip_prefix(key).map(|v| v.trim().to_string()))
                };
                if name.is_empty() || fields.len() < 2 {
                    return Err(fail(
                        "write it as: torsion T: body1, body2, k K, c C, angle θ0 (body1 may \
                         be ground)"
                            .into(),
                        start,
                        line.trim().len(),
                    ));
                }
                let mut angle = Vec::new();
                for b in &fields[..2] {
                    if b == "ground" {
                        angle.push(("0".to_string(), "0".to_string()));
                    } else if bodies.iter().any(|x| &x.name == b) {
                        angle.push((format!("φ{b}"), format!("φ{b}'")));
                    } else {
                        let at = line
                            .find(b.as_str())
                            .map_or(start, |i| offset - line.len() - 1 + i);
                        return Err(fail(
                            format!("torsion {name}: there is no body \"{b}\""),
                            at,
                            b.len(),
                        ));
                    }
                }
                let (kk, cc) = (
                    get("k ").unwrap_or("0".into()),
                    get("c ").unwrap_or("0".into()),
                );
                let th = get("angle ").unwrap_or("0".into());
                torsions.push((fields[0].clone(), fields[1].clone()));
                let mut lines = vec![format!(
                    "{name}_tau = ({kk})*({} - {} - ({th})) + ({cc})*({} - {})",
                    angle[1].0, angle[0].0, angle[1].1, angle[0].1
                )];
                if fields[1] != "ground" {
                    lines.push(format!("force {} = -{name}_tau", angle[1].0));
                }
                if fields[0] != "ground" {
                    lines.push(format!("force {} = {name}_tau", angle[0].0));
                }
                out.push(lines.join("; "));
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
                let fields = split_top(ends);
                let parsed: Vec<_> = fields.iter().take(2).filter_map(|e| anchor(e)).collect();
                let usage = match k {
                    "revolute" => "revolute A: body1(sx, sy), body2(sx, sy) (or ground(x, y))",
                    "fixed" => "fixed F: body1(sx, sy), body2(sx, sy), angle θ0 (or ground(x, y))",
                    "translational" => {
                        "translational P: body1(sx, sy), body2(sx, sy), axis(ex, ey) (the axis \
                         in body 1's frame, or ground's)"
                    }
                    _ => "spring S: body1(sx, sy), body2(sx, sy), k K, c C, length L0",
                };
                if name.is_empty() || fields.len() < 2 || parsed.len() != 2 {
                    return Err(fail(
                        format!("write it as: {usage}"),
                        start,
                        line.trim().len(),
                    ));
                }
                let line_at = offset - line.len() - 1;
                let mut ends = Vec::new();
                for end in &parsed {
                    let at = line.find(end.0.as_str()).map_or(start, |i| line_at + i);
                    ends.push(point_of(&bodies, name, end, at)?);
                }
                for e in &ends {
                    if let Some((x, y, _)) = &e.4 {
                        draws.push(format!("draw rod({x}, {y}, {}, {})", e.0, e.1));
                        let point = (e.0.clone(), e.1.clone());
                        match reached.iter_mut().find(|r| &r.0 == x) {
                            Some(r) if !r.2.contains(&point) => r.2.push(point),
                            Some(_) => {}
                            None => reached.push((x.clone(), y.clone(), vec![point])),
                        }
                    }
                }
                let extra = |key: &str| {
                    fields[2..]
                        .iter()
                        .find_map(|f| f.strip_prefix(key).map(|v| v.trim().to_string()))
                };
                let (a, b) = (&ends[0], &ends[1]);
                match k {
                    "revolute" => {
                        hinges.push((
                            parsed[0].0.clone(),
                            parsed[1].0.clone(),
                            a.0.clone(),
                            a.1.clone(),
                        ));
                        out.push(format!(
                            "constraint {name}_x: {} = {}; constraint {name}_y: {} = {}",
                            a.0, b.0, a.1, b.1
                        ))
                    }
                    "fixed" => {
                        let th = extra("angle ").unwrap_or_else(|| "0".into());
                        let pa = a.4.as_ref().map_or("0".to_string(), |x| x.2.clone());
                        let pb = b.4.as_ref().map_or("0".to_string(), |x| x.2.clone());
                        out.push(format!(
                            "constraint {name}_x: {} = {}; constraint {name}_y: {} = {}; \
                             constraint {name}_φ: {pb} - {pa} = {th}",
                            a.0, b.0, a.1, b.1
                        ));
                    }
                    "translational" => {
                        let Some(axis) = fields
                            .get(2)
                            .and_then(|f| anchor(f))
                            .filter(|f| f.0 == "axis")
                        else {
                            return Err(fail(
                                format!("write it as: {usage}"),
                                start,
                                line.trim().len(),
                            ));
                        };
                        // Normal n = (−e_y, e_x) in body 1's frame (or the ground's).
                        let (nx, ny) = (format!("(-({}))", axis.2), format!("({})", axis.1));
                        let (ux, uy, angle) = match &a.4 {
                            Some((_, _, p)) => (
                                format!("(cos({p})*{nx} - sin({p})*{ny})"),
                                format!("(sin({p})*{nx} + cos({p})*{ny})"),
                                p.clone(),
                            ),
                            None => (nx.clone(), ny.clone(), "0".into()),
                        };
                        let other = b.4.as_ref().map_or("0".to_string(), |x| x.2.clone());
                        out.push(format!(
                            "constraint {name}_n: ({} - ({}))*{ux} + ({} - ({}))*{uy} = 0; \
                             constraint {name}_φ: {other} - {angle} = 0",
                            b.0, a.0, b.1, a.1
                        ));
                    }
                    _ => {
                        let kk = extra("k ").unwrap_or_else(|| "0".into());
                        let cc = extra("c ").unwrap_or_else(|| "0".into());
                        let l0 = extra("length ").unwrap_or_else(|| "0".into());
                        draws.push(format!("draw spring({}, {}, {}, {})", a.0, a.1, b.0, b.1));
                        // d = p_b − p_a, F = (k (|d| − L0) + c |d|˙) d/|d| pulls a towards b.
                        let mut lines = vec![
                            format!("{name}_dx = {} - ({})", b.0, a.0),
                            format!("{name}_dy = {} - ({})", b.1, a.1),
                            format!("{name}_len = sqrt({name}_dx^2 + {name}_dy^2)"),
                            format!(
                                "{name}_f = ({kk})*({name}_len - ({l0})) + ({cc})*(({name}_dx)*({} - ({})) + ({name}_dy)*({} - ({})))/{name}_len",
                                b.2, a.2, b.3, a.3
                            ),
                        ];
                        // +F on end a, −F on end b; the torque about each centre is
                        // (B s)·F with B s = ∂(A s)/∂φ.
                        for (i, sign) in [(0usize, ""), (1, "-")] {
                            let Some((x, y, p)) = &ends[i].4 else {
                                continue;
                            };
                            let (_, sx, sy) = &parsed[i];
                            let fx = format!("{sign}{name}_f*{name}_dx/{name}_len");
                            let fy = format!("{sign}{name}_f*{name}_dy/{name}_len");
                            lines.push(format!("force {x} = {fx}"));
                            lines.push(format!("force {y} = {fy}"));
                            lines.push(format!(
                                "force {p} = (-sin({p})*({sx}) - cos({p})*({sy}))*({fx}) + (cos({p})*({sx}) - sin({p})*({sy}))*({fy})"
                            ));
                        }
                        out.push(lines.join("; "));
                    }
                }
            }
        }
    }
    // A body held at one point (the free end of a chain, a pendulum's bob) is drawn on to
    // that point mirrored through its centre, the far end of a uniform link: else its
    // rod would stop at its centre of mass.
    for (x, y, points) in &reached {
        if let [(px, py)] = points.as_slice() {
            draws.push(format!(
                "draw rod({x}, {y}, 2*{x} - ({px}), 2*{y} - ({py}))"
            ));
        }
    }
    // A torsion spring is a coil at the hinge between its bodies (else at its second
    // body's centre), its radius 0.12 of the distance from there to that body's centre
    // as the built-in pendulums draw theirs.
    let centre = |b: &str| {
        if b == "ground" {
            ("0".to_string(), "0".to_string())
        } else {
            (format!("x{b}"), format!("y{b}"))
        }
    };
    for (ta, tb) in &torsions {
        let body = if tb == "ground" { ta } else { tb };
        let other = if tb == "ground" { tb } else { ta };
        let (cx, cy) = centre(body);
        let hinge = hinges
            .iter()
            .find(|h| (&h.0 == ta && &h.1 == tb) || (&h.0 == tb && &h.1 == ta));
        let ((x, y), (fx, fy)) = match hinge {
            Some(h) => ((h.2.clone(), h.3.clone()), (cx, cy)),
            None => ((cx, cy), centre(other)),
        };
        draws.push(format!(
            "draw coil({x}, {y}, 0.12*sqrt(({fx} - ({x}))^2 + ({fy} - ({y}))^2))"
        ));
    }
    out.extend(draws);
    Ok(out.join("\n"))
}
