// re2d surface compiler — a small JSON reader that keeps what serde_json hides (spec: surface-compiler.md §5.1, §6.8.2).
//!
//! The surface rules depend on details a general JSON library normalises
//! away: whether a number literal was written as an integer (`4`) or a float
//! (`4.0`, `4e0`), overflowing literals (`1e999` → ±∞, not an error), the
//! legacy tokens `NaN`, `Infinity`, `-Infinity`, "last duplicate key wins",
//! and rejecting a byte-order mark. This reader produces a [`Value`] tree that
//! records exactly that. Nesting is limited to [`MAX_DEPTH`] levels so hostile
//! input cannot overflow the stack; it never panics.

/// Deepest array/object nesting accepted (deeper input is `E_JSON`).
pub const MAX_DEPTH: usize = 256;

/// A parsed JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number literal. `int` is true when the literal had no fraction and no
    /// exponent (and is not a legacy `NaN`/`Infinity` token). `v` is the value
    /// rounded to `f64` (±∞ when it overflows).
    Num {
        /// Value as `f64`.
        v: f64,
        /// Written as an integer literal.
        int: bool,
    },
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Value>),
    /// An object; duplicate keys keep only the last occurrence (in the
    /// position of the first).
    Obj(Vec<(String, Value)>),
}

impl Value {
    /// Object member lookup (`None` for non-objects and missing keys).
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    /// The array elements, if this is an array.
    pub fn as_arr(&self) -> Option<&[Value]> {
        match self {
            Value::Arr(a) => Some(a),
            _ => None,
        }
    }
    /// Integer literal value (default-mode typing: booleans are not numbers).
    pub fn as_int(&self) -> Option<f64> {
        match self {
            Value::Num { v, int: true } => Some(*v),
            _ => None,
        }
    }
    /// Any number literal (default-mode typing).
    pub fn as_num(&self) -> Option<f64> {
        match self {
            Value::Num { v, .. } => Some(*v),
            _ => None,
        }
    }
    /// Short name of the JSON type, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Num { int: true, .. } => "integer",
            Value::Num { .. } => "number",
            Value::Str(_) => "string",
            Value::Arr(_) => "array",
            Value::Obj(_) => "object",
        }
    }
}

/// Parse error: byte offset and reason.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonError {
    /// Byte offset in the input.
    pub offset: usize,
    /// What is wrong.
    pub msg: String,
}

/// Parse a complete document. `legacy` additionally accepts the bare tokens
/// `NaN`, `Infinity` and `-Infinity` as (float) numbers.
pub fn parse(bytes: &[u8], legacy: bool) -> Result<Value, JsonError> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(JsonError {
            offset: 0,
            msg: "byte-order mark not allowed".into(),
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| JsonError {
        offset: e.valid_up_to(),
        msg: "invalid UTF-8".into(),
    })?;
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        legacy,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("trailing characters after the document"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    legacy: bool,
}

impl Parser<'_> {
    fn err(&self, msg: &str) -> JsonError {
        JsonError {
            offset: self.i,
            msg: msg.into(),
        }
    }
    fn ws(&mut self) {
        while let Some(&c) = self.s.get(self.i) {
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            } else {
                break;
            }
        }
    }
    fn eat(&mut self, lit: &[u8]) -> bool {
        if self.s[self.i..].starts_with(lit) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }
    fn value(&mut self, depth: usize) -> Result<Value, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.err("nesting too deep"));
        }
        match self.s.get(self.i) {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Value::Str(self.string()?)),
            Some(b't') if self.eat(b"true") => Ok(Value::Bool(true)),
            Some(b'f') if self.eat(b"false") => Ok(Value::Bool(false)),
            Some(b'n') if self.eat(b"null") => Ok(Value::Null),
            Some(b'N') if self.legacy && self.eat(b"NaN") => Ok(Value::Num {
                v: f64::NAN,
                int: false,
            }),
            Some(b'I') if self.legacy && self.eat(b"Infinity") => Ok(Value::Num {
                v: f64::INFINITY,
                int: false,
            }),
            Some(b'-') if self.legacy && self.s[self.i..].starts_with(b"-Infinity") => {
                self.i += 9;
                Ok(Value::Num {
                    v: f64::NEG_INFINITY,
                    int: false,
                })
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("unexpected character")),
        }
    }
    fn object(&mut self, depth: usize) -> Result<Value, JsonError> {
        self.i += 1;
        let mut m: Vec<(String, Value)> = Vec::new();
        self.ws();
        if self.eat(b"}") {
            return Ok(Value::Obj(m));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                return Err(self.err("expected a string key"));
            }
            let k = self.string()?;
            self.ws();
            if !self.eat(b":") {
                return Err(self.err("expected ':'"));
            }
            self.ws();
            let v = self.value(depth + 1)?;
            if let Some(slot) = m.iter_mut().find(|(kk, _)| *kk == k) {
                slot.1 = v;
            } else {
                m.push((k, v));
            }
            self.ws();
            if self.eat(b",") {
                continue;
            }
            if self.eat(b"}") {
                return Ok(Value::Obj(m));
            }
            return Err(self.err("expected ',' or '}'"));
        }
    }
    fn array(&mut self, depth: usize) -> Result<Value, JsonError> {
        self.i += 1;
        let mut a = Vec::new();
        self.ws();
        if self.eat(b"]") {
            return Ok(Value::Arr(a));
        }
        loop {
            self.ws();
            a.push(self.value(depth + 1)?);
            self.ws();
            if self.eat(b",") {
                continue;
            }
            if self.eat(b"]") {
                return Ok(Value::Arr(a));
            }
            return Err(self.err("expected ',' or ']'"));
        }
    }
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let h = self
            .s
            .get(self.i..self.i + 4)
            .ok_or_else(|| self.err("short \\u escape"))?;
        let t = std::str::from_utf8(h).map_err(|_| self.err("bad \\u escape"))?;
        let v = u32::from_str_radix(t, 16).map_err(|_| self.err("bad \\u escape"))?;
        self.i += 4;
        Ok(v)
    }
    fn string(&mut self) -> Result<String, JsonError> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&c) = self.s.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            // The input is valid UTF-8 and we split only at ASCII bytes.
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).unwrap_or(""));
            match self.s.get(self.i) {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let e = *self.s.get(self.i).ok_or_else(|| self.err("bad escape"))?;
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let mut c = self.hex4()?;
                            if (0xD800..0xDC00).contains(&c) && self.eat(b"\\u") {
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                                } else {
                                    out.push('\u{FFFD}');
                                    c = lo;
                                }
                            }
                            out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                        }
                        _ => return Err(self.err("bad escape")),
                    }
                }
                Some(_) => return Err(self.err("control character in string")),
            }
        }
    }
    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let s = p.i;
            while p.s.get(p.i).is_some_and(|c| c.is_ascii_digit()) {
                p.i += 1;
            }
            p.i - s
        };
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let int_start = self.i;
        let n = digits(self);
        if n == 0 {
            return Err(self.err("bad number"));
        }
        if n > 1 && self.s[int_start] == b'0' {
            return Err(self.err("leading zero in number"));
        }
        let mut int = true;
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            int = false;
            if digits(self) == 0 {
                return Err(self.err("bad fraction"));
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            int = false;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return Err(self.err("bad exponent"));
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("0");
        // Rust's parser rounds correctly and gives ±inf on overflow.
        let v: f64 = text.parse().map_err(|_| self.err("bad number"))?;
        Ok(Value::Num { v, int })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(v: f64, int: bool) -> Value {
        Value::Num { v, int }
    }

    #[test]
    fn integer_and_float_literals_are_told_apart() {
        assert_eq!(parse(b"4", false).unwrap(), num(4.0, true));
        assert_eq!(parse(b"4.0", false).unwrap(), num(4.0, false));
        assert_eq!(parse(b"4e0", false).unwrap(), num(4.0, false));
        assert_eq!(parse(b"-0", false).unwrap(), num(-0.0, true));
        assert_eq!(parse(b"1e999", false).unwrap(), num(f64::INFINITY, false));
    }

    #[test]
    fn rejects_non_json() {
        for bad in [
            &b"NaN"[..],
            b"Infinity",
            b"-Infinity",
            b"01",
            b"[1,]",
            b"{\"a\":1,}",
            b"\xEF\xBB\xBF{}",
            b"\"\xff\"",
            b"[1] x",
            b"",
            b"1.",
            b".5",
        ] {
            assert!(
                parse(bad, false).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn legacy_tokens() {
        assert!(matches!(parse(b"NaN", true).unwrap(), Value::Num { v, int: false } if v.is_nan()));
        assert_eq!(
            parse(b"-Infinity", true).unwrap(),
            num(f64::NEG_INFINITY, false)
        );
        assert_eq!(
            parse(b"[Infinity]", true).unwrap(),
            Value::Arr(vec![num(f64::INFINITY, false)])
        );
    }

    #[test]
    fn last_duplicate_key_wins_and_strings_unescape() {
        let v = parse(br#"{"a":1,"b":"x\u00e9\n","a":[true,null]}"#, false).unwrap();
        assert_eq!(
            v.get("a"),
            Some(&Value::Arr(vec![Value::Bool(true), Value::Null]))
        );
        assert_eq!(v.get("b"), Some(&Value::Str("x\u{e9}\n".into())));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        assert!(parse(deep.as_bytes(), false).is_err());
        let ok = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(ok.as_bytes(), false).is_ok());
    }
}
