// re2d MSH — reading a model: direct or nested (`--entry`), strict and tolerant profiles, the validator (spec: msh.md §1.6, §2.2, §4.1).
//! [`read`] decodes the NRes layer(s), runs every check and returns the model
//! with all findings (`Err` only for what rejects in both profiles).
//! [`decode`] applies a profile, [`validate`] lists every violation.
//! With `entry = Some(name)` the model is the payload of that entry of an
//! outer archive (looked up case-insensitively, §1.5); the outer archive's
//! own findings are reported too, prefixed with `outer archive:`.

use crate::nres::{self, Finding, Findings, Issue, Profile, Report, Tolerant};
use re2d::limits::Limits;

use super::check::analyze;
use super::model::Model;

/// Decodes a model and runs every check; `Err` for tolerant-fatal problems.
pub fn read<'a>(
    bytes: &'a [u8],
    entry: Option<&[u8]>,
    limits: &Limits,
) -> Result<(Model<'a>, Vec<Finding>), Issue> {
    let (model, findings) = read_all(bytes, entry, limits);
    match model {
        Some(m) => Ok((m, findings)),
        None => Err(findings
            .into_iter()
            .find(|x| x.tolerant == Tolerant::Fatal)
            .map(|x| x.issue)
            .unwrap_or_else(|| Issue::new("E_MSH_MISSING_TABLE", None, None, "not a model"))),
    }
}

fn fatal(issue: Issue) -> Finding {
    Finding {
        issue,
        strict_error: true,
        tolerant: Tolerant::Fatal,
    }
}

/// Every finding, and the model unless a finding is tolerant-fatal.
fn read_all<'a>(
    bytes: &'a [u8],
    entry: Option<&[u8]>,
    limits: &Limits,
) -> (Option<Model<'a>>, Vec<Finding>) {
    let mut f = Findings::new(limits.msh_max_findings_per_code);
    let inner: &'a [u8] = match entry {
        None => bytes,
        Some(name) => {
            let (outer, findings) = match nres::read(bytes, limits) {
                Ok(x) => x,
                Err(mut e) => {
                    e.message = format!("outer archive: {}", e.message);
                    return (None, vec![fatal(e)]);
                }
            };
            for mut x in findings {
                x.issue.message = format!("outer archive: {}", x.issue.message);
                f.push(x);
            }
            let Some(found) = outer.find(name) else {
                f.push(fatal(Issue::new(
                    "E_MSH_ENTRY",
                    None,
                    None,
                    format!(
                        "no entry named \"{}\" in the archive",
                        nres::name::display(name)
                    ),
                )));
                return (None, f.finish());
            };
            if found.matches > 1 {
                f.diag(
                    "W_NRES_DUPLICATE_NAME",
                    None,
                    Some(found.index as u64),
                    format!(
                        "outer archive: {} entries are named \"{}\"; entry {} is used",
                        found.matches,
                        nres::name::display(name),
                        found.index
                    ),
                );
            }
            if outer.payload(found.index).is_none() {
                f.push(fatal(Issue::new(
                    "E_NRES_PAYLOAD_RANGE",
                    None,
                    Some(found.index as u64),
                    format!("outer archive: entry {} is unreadable", found.index),
                )));
                return (None, f.finish());
            }
            let e = &outer.entries()[found.index];
            let (s, n) = (e.data_offset as usize, e.size as usize);
            &bytes[s..s + n]
        }
    };
    let (archive, nres_findings) = match nres::read(inner, limits) {
        Ok(x) => x,
        Err(e) => {
            f.push(fatal(e));
            return (None, f.finish());
        }
    };
    for x in nres_findings {
        f.push(x);
    }
    let model = analyze(archive, &mut f);
    (model, f.finish())
}

/// Decodes a model with a profile: strict → the model and its diagnostics or
/// the first violation; tolerant → the model with every finding as a
/// diagnostic (each names what was dropped), or the first fatal one.
pub fn decode<'a>(
    bytes: &'a [u8],
    entry: Option<&[u8]>,
    profile: Profile,
    limits: &Limits,
) -> Result<(Model<'a>, Vec<Issue>), Issue> {
    let (m, findings) = read_all(bytes, entry, limits);
    let diags = nres::apply_profile(findings, profile)?;
    match m {
        Some(m) => Ok((m, diags)),
        // unreachable: a missing model always comes with a fatal finding
        None => Err(Issue::new("E_MSH_MISSING_TABLE", None, None, "not a model")),
    }
}

/// Every violation (strict classification) and diagnostic of a model file.
pub fn validate(bytes: &[u8], entry: Option<&[u8]>, limits: &Limits) -> Report {
    Report::from_findings(&read_all(bytes, entry, limits).1)
}

/// The validator under a profile: strict → every §1.6/§4.1 violation is an
/// error; tolerant → only what the tolerant reader cannot survive is an
/// error, everything else (with what it drops) is a diagnostic.
pub fn validate_with(
    bytes: &[u8],
    entry: Option<&[u8]>,
    profile: Profile,
    limits: &Limits,
) -> Report {
    let findings = read_all(bytes, entry, limits).1;
    match profile {
        Profile::Strict => Report::from_findings(&findings),
        Profile::Tolerant => {
            let mut r = Report::default();
            for f in findings {
                if f.tolerant == Tolerant::Fatal {
                    r.errors.push(f.issue);
                } else {
                    r.diagnostics.push(f.issue);
                }
            }
            r
        }
    }
}
