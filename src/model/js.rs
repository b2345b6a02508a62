// re2d — the JS value semantics the model rules are written in (spec: js-rotsprite.md §0, §2).
//
//! Validation runs on the JSON clone of the input (`cloneData`), so every
//! value is a `serde_json::Value`; these helpers give it JS meaning:
//! truthiness, `??`, property-key string conversion, `Math.round`, and the
//! shared validators `finite`, `vector` and `name`.

use serde_json::{Map, Value};

use super::ModelError;

/// JS truthiness of a JSON value.
pub fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|x| x != 0.0 && !x.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// `v ?? fallback` for an optional property: missing or `null` → `None`.
pub fn present(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null())
}

/// A property of an object value (`undefined` for non-objects, as `x?.k`
/// reads on primitives and arrays for non-index keys).
pub fn prop<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.as_object().and_then(|o| o.get(key))
}

/// JS `Number → String` for the cases JSON produces (integers print without
/// a fraction; other values use the shortest round-trip form).
pub fn number_to_string(x: f64) -> String {
    let a = x.abs();
    if x == x.trunc() && a < 1e21 {
        format!("{}", x as i128)
    } else if (1e-6..1e21).contains(&a) {
        // Shortest round-trip decimal, as JS prints it in this range.
        format!("{x}")
    } else {
        // Exponent form: JS writes a sign on positive exponents ("1e+21").
        let s = format!("{x:e}");
        if s.contains("e-") {
            s
        } else {
            s.replace('e', "e+")
        }
    }
}

/// JS `ToString` (used by property-key conversion and string concatenation).
pub fn to_js_string(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number_to_string(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .map(|e| {
                if e.is_null() {
                    String::new()
                } else {
                    to_js_string(e)
                }
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".into(),
    }
}

/// JS `Math.round`: halves round toward +∞; results in (−0.5, 0) are −0.
pub fn js_round(x: f64) -> f64 {
    if !x.is_finite() || x.abs() >= 4503599627370496.0 {
        return x;
    }
    let f = x.floor();
    let r = if x - f >= 0.5 { f + 1.0 } else { f };
    if r == 0.0 && x.is_sign_negative() {
        -0.0
    } else {
        r
    }
}

/// `finite(v, label)`: a number, finite, `|v| ≤ 1e6`, else RangeError.
pub fn finite(v: Option<&Value>, label: &str) -> Result<f64, ModelError> {
    match v.and_then(Value::as_f64) {
        Some(x) if x.is_finite() && x.abs() <= 1e6 => Ok(x),
        _ => Err(ModelError::range(format!(
            "{label} must be a finite number with |v| <= 1e6"
        ))),
    }
}

/// `vector(v, fallback, label)`: `v ?? fallback`, an array of exactly 3
/// finite numbers; returns a new array.
pub fn vector(v: Option<&Value>, fallback: [f64; 3], label: &str) -> Result<[f64; 3], ModelError> {
    let Some(v) = present(v) else {
        return Ok(fallback);
    };
    match v.as_array() {
        Some(a) if a.len() == 3 => {
            let mut out = [0.0; 3];
            for (i, e) in a.iter().enumerate() {
                out[i] = finite(Some(e), &format!("{label}[{i}]"))?;
            }
            Ok(out)
        }
        _ => Err(ModelError::type_(format!(
            "{label} must be an array of 3 numbers"
        ))),
    }
}

/// A `[f64; 3]` as a JSON array.
pub fn vec_value(v: [f64; 3]) -> Value {
    Value::Array(v.iter().map(|&x| num(x)).collect())
}

/// A number as a JSON value (−0 becomes 0, as the JSON round trip does).
pub fn num(x: f64) -> Value {
    serde_json::Number::from_f64(if x == 0.0 { 0.0 } else { x }).map_or(Value::Null, Value::Number)
}

/// `name(v)`: a non-empty string of at most 80 UTF-16 units, not
/// `__proto__`, `constructor` or `prototype`.
pub fn name<'a>(v: Option<&'a Value>, label: &str) -> Result<&'a str, ModelError> {
    match v.and_then(Value::as_str) {
        Some(s)
            if !s.is_empty()
                && super::jstext::js_len(s) <= 80
                && !matches!(s, "__proto__" | "constructor" | "prototype") =>
        {
            Ok(s)
        }
        _ => Err(ModelError::type_(format!(
            "{label} must be a name (1..80 characters)"
        ))),
    }
}

/// `Object.entries(v)` of a JSON value: object entries in order, array
/// indices, string characters; nothing for other primitives.
pub fn entries(v: &Value) -> Vec<(String, Value)> {
    match v {
        Value::Object(o) => o.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v.clone()))
            .collect(),
        Value::String(s) => s
            .chars()
            .enumerate()
            .map(|(i, c)| (i.to_string(), Value::String(c.to_string())))
            .collect(),
        _ => Vec::new(),
    }
}

/// The object behind `x = x ?? {}` on a parent object, created (appended)
/// when missing or null; a non-object value is a TypeError.
pub fn object_default<'a>(
    parent: &'a mut Map<String, Value>,
    key: &str,
    label: &str,
) -> Result<&'a mut Map<String, Value>, ModelError> {
    if present(parent.get(key)).is_none() {
        parent.insert(key.to_string(), Value::Object(Map::new()));
    }
    parent
        .get_mut(key)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| ModelError::type_(format!("{label} must be an object")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn math_round_is_half_up() {
        assert_eq!(js_round(2.5), 3.0);
        assert_eq!(js_round(-2.5), -2.0);
        assert_eq!(js_round(0.49999999999999994), 0.0);
        assert!(js_round(-0.3).is_sign_negative());
        assert_eq!(js_round(-0.5), 0.0);
        assert_eq!(js_round(1.5), 2.0);
    }

    #[test]
    fn to_string_of_keys() {
        assert_eq!(to_js_string(&json!(["eyes"])), "eyes");
        assert_eq!(to_js_string(&json!([["mouth"]])), "mouth");
        assert_eq!(to_js_string(&json!(5)), "5");
        assert_eq!(to_js_string(&json!(1.5)), "1.5");
        // JS: String(1e21) === "1e+21", String(1e-7) === "1e-7", String(0.000001) === "0.000001".
        assert_eq!(number_to_string(1e21), "1e+21");
        assert_eq!(number_to_string(1.5e-7), "1.5e-7");
        assert_eq!(number_to_string(0.000001), "0.000001");
        assert_eq!(number_to_string(-2.5), "-2.5");
        assert_eq!(to_js_string(&json!({})), "[object Object]");
        assert_eq!(to_js_string(&json!([1, null, "a"])), "1,,a");
    }

    #[test]
    fn validators() {
        assert_eq!(finite(Some(&json!(3)), "x"), Ok(3.0));
        assert!(finite(Some(&json!("3")), "x").is_err());
        assert!(finite(Some(&json!(1e7)), "x").is_err());
        assert!(finite(None, "x").is_err());
        assert_eq!(vector(None, [1.0, 2.0, 3.0], "v"), Ok([1.0, 2.0, 3.0]));
        assert_eq!(vector(Some(&json!(null)), [0.0; 3], "v"), Ok([0.0; 3]));
        assert_eq!(
            vector(Some(&json!([1, 2])), [0.0; 3], "v")
                .unwrap_err()
                .class,
            super::super::ErrorClass::Type
        );
        assert_eq!(
            vector(Some(&json!([1, 2, 2e6])), [0.0; 3], "v")
                .unwrap_err()
                .class,
            super::super::ErrorClass::Range
        );
        assert!(name(Some(&json!("__proto__")), "n").is_err());
        assert!(name(Some(&json!("")), "n").is_err());
        assert!(name(Some(&json!("a".repeat(81))), "n").is_err());
        assert_eq!(
            name(Some(&json!("é".repeat(80))), "n")
                .unwrap()
                .chars()
                .count(),
            80
        );
        assert!(truthy(Some(&json!([]))));
        assert!(!truthy(Some(&json!(0))));
        assert!(!truthy(Some(&json!(""))));
    }
}
