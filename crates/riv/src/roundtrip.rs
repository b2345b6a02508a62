//! Round trip (rive-export.md §10.1, last rule): the records the
//! independent reader decodes must equal the writer's object list exactly —
//! types, properties, values and order.

use super::read::{Field, RivFile};
use super::write::{RivObject, Value};

/// `None` when `file` holds exactly `objects`; otherwise the first difference.
pub fn compare(objects: &[RivObject], file: &RivFile) -> Option<String> {
    if objects.len() != file.records.len() {
        return Some(format!(
            "{} objects written, {} read",
            objects.len(),
            file.records.len()
        ));
    }
    for (i, (o, r)) in objects.iter().zip(&file.records).enumerate() {
        if o.type_key != r.type_key {
            return Some(format!(
                "object {i}: type {} written, {} read",
                o.type_key, r.type_key
            ));
        }
        if o.props.len() != r.fields.len() {
            return Some(format!(
                "object {i}: {} properties written, {} read",
                o.props.len(),
                r.fields.len()
            ));
        }
        for ((k, v), (rk, rv)) in o.props.iter().zip(&r.fields) {
            let same = k == rk
                && match (v, rv) {
                    (Value::Uint(a), Field::Uint(b)) => a == b,
                    (Value::Double(a), Field::Float(b)) => a.to_bits() == b.to_bits(),
                    (Value::Str(a), Field::Blob(b)) => a.as_bytes() == b.as_slice(),
                    (Value::Bytes(a), Field::Blob(b)) => a == b,
                    _ => false,
                };
            if !same {
                return Some(format!(
                    "object {i}: property {k} = {v:?} written, {rk} = {rv:?} read"
                ));
            }
        }
    }
    None
}
