// re2d NRes/MSH — findings: stable codes, table, index, message, and how each reading profile treats them (spec: msh.md §1.6, §4.1, §8).
//! Every check of the NRes and MSH readers produces a [`Finding`]: an
//! [`Issue`] (stable `E_*`/`W_*` code, table, index, message) plus what the
//! strict and the tolerant profile do with it. The validator lists them all;
//! the strict reader fails on the first strict error; the tolerant reader
//! fails only on a tolerant-fatal one and returns the others as diagnostics.
//!
//! Codes starting with `E_` are errors in strict mode, codes starting with
//! `W_` are diagnostics in both profiles.

use std::collections::HashMap;
use std::fmt;

/// One problem found in an archive or model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// Stable identifier, e.g. `E_NRES_MAGIC`, `E_MSH_INDEX_RANGE`, `W_NRES_UNINDEXED`.
    pub code: &'static str,
    /// MSH table (`type_id`) the issue is about; `None` for container-level issues.
    pub table: Option<u32>,
    /// Record index within the table (or the directory entry index for container issues).
    pub index: Option<u64>,
    /// Human-readable explanation (names every dropped range in tolerant mode).
    pub message: String,
}

impl Issue {
    /// A new issue.
    pub fn new(
        code: &'static str,
        table: Option<u32>,
        index: Option<u64>,
        message: impl Into<String>,
    ) -> Issue {
        Issue {
            code,
            table,
            index,
            message: message.into(),
        }
    }

    /// The issue as a JSON object `{"code","table","index","message"}`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "code": self.code,
            "table": self.table,
            "index": self.index,
            "message": self.message,
        })
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.code, self.message)
    }
}

impl std::error::Error for Issue {}

/// What the tolerant profile does with a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tolerant {
    /// The archive or model is rejected.
    Fatal,
    /// Reading continues (the damaged range is dropped or the finding is
    /// informative); the issue is returned as a diagnostic.
    Diagnostic,
}

/// A check result with its classification in both profiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The problem.
    pub issue: Issue,
    /// `true` when the strict profile rejects the input because of it.
    pub strict_error: bool,
    /// What the tolerant profile does.
    pub tolerant: Tolerant,
}

/// Validator output: every strict error and every diagnostic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Violations the strict profile rejects (in check order).
    pub errors: Vec<Issue>,
    /// Everything else (lints, non-canonical layout, duplicate names, …).
    pub diagnostics: Vec<Issue>,
}

impl Report {
    /// `true` when there is no strict error.
    pub fn ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// Splits findings by their strict classification.
    pub fn from_findings(findings: &[Finding]) -> Report {
        let mut r = Report::default();
        for f in findings {
            if f.strict_error {
                r.errors.push(f.issue.clone());
            } else {
                r.diagnostics.push(f.issue.clone());
            }
        }
        r
    }

    /// `{"ok":bool,"errors":[…],"diagnostics":[…]}` (msh.md §8).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "ok": self.ok(),
            "errors": self.errors.iter().map(Issue::json).collect::<Vec<_>>(),
            "diagnostics": self.diagnostics.iter().map(Issue::json).collect::<Vec<_>>(),
        })
    }
}

/// Collects findings, listing at most `cap` per code individually and
/// counting the rest into one summary finding per code.
#[derive(Debug)]
pub(crate) struct Findings {
    list: Vec<Finding>,
    over: HashMap<&'static str, (u64, Finding)>,
    counts: HashMap<&'static str, u64>,
    cap: u64,
}

impl Findings {
    pub(crate) fn new(cap: u32) -> Findings {
        Findings {
            list: Vec::new(),
            over: HashMap::new(),
            counts: HashMap::new(),
            cap: cap.max(1) as u64,
        }
    }

    /// Adds a finding.
    pub(crate) fn push(&mut self, f: Finding) {
        let n = self.counts.entry(f.issue.code).or_insert(0);
        *n += 1;
        if *n <= self.cap {
            self.list.push(f);
        } else {
            let e = self.over.entry(f.issue.code).or_insert((0, f));
            e.0 += 1;
        }
    }

    /// A strict error that the tolerant profile survives (with `message`
    /// describing what it drops).
    pub(crate) fn error(
        &mut self,
        code: &'static str,
        table: Option<u32>,
        index: Option<u64>,
        message: impl Into<String>,
    ) {
        self.push(Finding {
            issue: Issue::new(code, table, index, message),
            strict_error: true,
            tolerant: Tolerant::Diagnostic,
        });
    }

    /// An error in both profiles.
    pub(crate) fn fatal(
        &mut self,
        code: &'static str,
        table: Option<u32>,
        index: Option<u64>,
        message: impl Into<String>,
    ) {
        self.push(Finding {
            issue: Issue::new(code, table, index, message),
            strict_error: true,
            tolerant: Tolerant::Fatal,
        });
    }

    /// A diagnostic in both profiles.
    pub(crate) fn diag(
        &mut self,
        code: &'static str,
        table: Option<u32>,
        index: Option<u64>,
        message: impl Into<String>,
    ) {
        self.push(Finding {
            issue: Issue::new(code, table, index, message),
            strict_error: false,
            tolerant: Tolerant::Diagnostic,
        });
    }

    /// The findings, with one summary per code that went over the cap.
    pub(crate) fn finish(mut self) -> Vec<Finding> {
        let mut over: Vec<_> = self.over.into_iter().collect();
        over.sort_by_key(|(code, _)| *code);
        for (code, (n, mut f)) in over {
            f.issue.index = None;
            f.issue.message = format!("{n} more findings of {code} not listed");
            self.list.push(f);
        }
        self.list
    }
}
