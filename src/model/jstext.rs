// re2d — JSON text from/to the JS host with JS strings kept exactly: lone UTF-16 surrogates and deep nesting (spec: js-rotsprite.md §2, §3.3, §3.4).
//! The JS side hands definitions and animation sets over as `JSON.stringify`
//! text (the §2 clone). JS strings are UTF-16 and may hold lone surrogates,
//! which `JSON.stringify` writes as `\udXXX` escapes and a Rust `String`
//! cannot hold. [`parse`] keeps them with an injective in-band encoding, so
//! the validators compare, count and copy such strings exactly as JS does,
//! and [`to_text`] writes them back as the same escapes for `JSON.parse`:
//!
//! - a lone surrogate `u` becomes the two chars [`ESC`], `U+F0000 + (u − 0xD800)`;
//! - a real `U+10FFFF` (the escape char itself) becomes [`ESC`], [`ESC`];
//! - [`js_len`] counts UTF-16 units of the original string.
//!
//! Nesting is only limited by [`Limits::json_max_depth`] (checked before
//! parsing, RangeError past it), not by serde_json's fixed 128 levels.

use serde_json::Value;

use super::ModelError;
use crate::limits::Limits;

/// The in-band escape char (a noncharacter, never in ordinary text).
pub const ESC: char = '\u{10FFFF}';
const SUR_BASE: u32 = 0xF0000;

/// Parses `JSON.stringify` text into a value, keeping lone surrogates
/// (encoded, see the module docs). Deeper nesting than the limit is a
/// RangeError, malformed text a SyntaxError.
pub fn parse(text: &str, limits: &Limits) -> Result<Value, ModelError> {
    limits
        .check_json_depth(text.as_bytes())
        .map_err(|e| ModelError::range(e.to_string()))?;
    let pre = encode_escapes(text);
    let mut de = serde_json::Deserializer::from_str(&pre);
    de.disable_recursion_limit();
    let v = <Value as serde::Deserialize>::deserialize(&mut de)
        .and_then(|v: Value| de.end().map(|_| v))
        .map_err(|e| ModelError::syntax(e.to_string()))?;
    Ok(v)
}

/// Writes a value as JSON text for `JSON.parse`, turning encoded lone
/// surrogates back into `\udXXX` escapes.
pub fn to_text(v: &Value) -> String {
    let s = v.to_string();
    if !s.contains(ESC) {
        return s;
    }
    decode_to_escapes(&s)
}

/// Length in UTF-16 units of the original JS string.
pub fn js_len(s: &str) -> usize {
    let mut n = 0;
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == ESC {
            match it.next() {
                Some(ESC) => n += 2,
                Some(_) => n += 1,
                None => n += 2,
            }
        } else {
            n += c.len_utf16();
        }
    }
    n
}

fn hex4(b: &[u8]) -> Option<u32> {
    if b.len() < 4 {
        return None;
    }
    let s = std::str::from_utf8(&b[..4]).ok()?;
    u32::from_str_radix(s, 16).ok()
}

/// Inside string literals: lone `\uD800`-style escapes → encoded chars, raw
/// [`ESC`] → `ESC ESC`. Everything else is copied.
fn encode_escapes(text: &str) -> String {
    if !text.contains(['\\', ESC]) {
        return text.to_string();
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut in_str = false;
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        let c = b[i];
        if !in_str {
            if c == b'"' {
                in_str = true;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_str = false;
                i += 1;
            }
            b'\\' if b.get(i + 1) == Some(&b'u') => {
                let Some(u) = hex4(&b[i + 2..]) else {
                    i += 2;
                    continue;
                };
                let is_high = (0xD800..0xDC00).contains(&u);
                let is_low = (0xDC00..0xE000).contains(&u);
                if is_high
                    && b.get(i + 6) == Some(&b'\\')
                    && b.get(i + 7) == Some(&b'u')
                    && hex4(&b[i + 8..]).is_some_and(|l| (0xDC00..0xE000).contains(&l))
                {
                    i += 12; // a valid pair: serde_json joins it
                } else if is_high || is_low {
                    out.push_str(&text[last..i]);
                    out.push(ESC);
                    out.push(char::from_u32(SUR_BASE + (u - 0xD800)).unwrap_or(ESC));
                    i += 6;
                    last = i;
                } else {
                    i += 6;
                }
            }
            b'\\' => i += 2,
            0xF4 if text[i..].starts_with(ESC) => {
                out.push_str(&text[last..i]);
                out.push(ESC);
                out.push(ESC);
                i += ESC.len_utf8();
                last = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[last.min(text.len())..]);
    out
}

fn decode_to_escapes(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != ESC {
            out.push(c);
            continue;
        }
        match it.next() {
            Some(ESC) | None => out.push(ESC),
            Some(x) => {
                let u = (x as u32).wrapping_sub(SUR_BASE) + 0xD800;
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out
}

/// A JS string handed over as JSON text (`JSON.stringify(s)`), decoded.
pub fn parse_string(text: &str) -> Result<String, ModelError> {
    match parse(text, &Limits::DEFAULT)? {
        Value::String(s) => Ok(s),
        _ => Err(ModelError::type_("expected a string")),
    }
}

/// A string written back as JSON text (`JSON.parse` restores it).
pub fn string_text(s: &str) -> String {
    to_text(&Value::String(s.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_round_trip() {
        let text = r#"{"a":"\ud800","b":"x\udfffy","c":"\ud83d\ude00","\udc00k":[1]}"#;
        let v = parse(text, &Limits::DEFAULT).unwrap();
        assert_eq!(js_len(v["a"].as_str().unwrap()), 1);
        assert_eq!(js_len(v["b"].as_str().unwrap()), 3);
        assert_eq!(v["c"].as_str().unwrap(), "😀");
        assert_eq!(js_len(v["c"].as_str().unwrap()), 2);
        let back = to_text(&v);
        assert_eq!(
            back,
            r#"{"a":"\ud800","b":"x\udfffy","c":"😀","\udc00k":[1]}"#
        );
        // distinct lone surrogates stay distinct, and differ from real text
        let w = parse(r#"["\ud800","\ud801","\udbff\u0041"]"#, &Limits::DEFAULT).unwrap();
        assert_ne!(w[0], w[1]);
        assert_eq!(js_len(w[2].as_str().unwrap()), 2);
        // the escape char itself is kept and counted as two units
        let e = parse("[\"\u{10FFFF}\"]", &Limits::DEFAULT).unwrap();
        assert_eq!(js_len(e[0].as_str().unwrap()), 2);
        assert_eq!(to_text(&e), "[\"\u{10FFFF}\"]");
    }

    #[test]
    fn depth_beyond_128_and_the_limit() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse(&deep(300), &Limits::DEFAULT).is_ok());
        let e = parse(&deep(1001), &Limits::DEFAULT).unwrap_err();
        assert_eq!(e.class, super::super::ErrorClass::Range);
        assert_eq!(
            parse("[1,", &Limits::DEFAULT).unwrap_err().class,
            super::super::ErrorClass::Syntax
        );
    }
}
