//! Throwing the natives' errors with their whole message.
//!
//! rquickjs' `Exception::throw_type` (and `_range`, `_syntax`, `_reference`,
//! `_internal`) hand the message to QuickJS, which formats it into a
//! 256-byte buffer: a message naming a long path was cut there, and two
//! answers that should read alike (a path outside `--root` that exists and
//! one that does not) could be cut at different places. Here the error is
//! made by QuickJS as before (its own class, with its stack), then its
//! `message` is set to the whole text.

use rquickjs::{Ctx, Error, Exception};

fn whole(ctx: &Ctx<'_>, thrown: Error, msg: &str) -> Error {
    if !thrown.is_exception() {
        return thrown;
    }
    let e = ctx.catch();
    if let Some(obj) = e.as_object()
        && let Err(err) = obj.set("message", msg)
    {
        return err;
    }
    ctx.throw(e)
}

/// Throws a `TypeError` carrying `msg` whole.
pub fn type_error(ctx: &Ctx<'_>, msg: &str) -> Error {
    whole(ctx, Exception::throw_type(ctx, ""), msg)
}

/// Throws a `RangeError` carrying `msg` whole.
pub fn range_error(ctx: &Ctx<'_>, msg: &str) -> Error {
    whole(ctx, Exception::throw_range(ctx, ""), msg)
}

/// Throws a `SyntaxError` carrying `msg` whole.
pub fn syntax_error(ctx: &Ctx<'_>, msg: &str) -> Error {
    whole(ctx, Exception::throw_syntax(ctx, ""), msg)
}

/// Throws a `ReferenceError` carrying `msg` whole.
pub fn reference_error(ctx: &Ctx<'_>, msg: &str) -> Error {
    whole(ctx, Exception::throw_reference(ctx, ""), msg)
}

/// Throws an `InternalError` carrying `msg` whole.
pub fn internal_error(ctx: &Ctx<'_>, msg: &str) -> Error {
    whole(ctx, Exception::throw_internal(ctx, ""), msg)
}

#[cfg(test)]
mod tests {
    use rquickjs::{Context, Ctx, Error, Exception, Runtime};

    type Thrower = fn(&Ctx<'_>, &str) -> Error;

    /// The class name and message of what `f` throws with `msg`.
    fn thrown(f: Thrower, msg: &str) -> (String, String) {
        let rt = Runtime::new().unwrap();
        let cx = Context::full(&rt).unwrap();
        cx.with(|ctx| {
            assert!(f(&ctx, msg).is_exception());
            let e = ctx.catch();
            let o = e.as_object().unwrap();
            let ctor: rquickjs::Object = o.get("constructor").unwrap();
            (ctor.get("name").unwrap(), o.get("message").unwrap())
        })
    }

    #[test]
    fn every_class_keeps_a_long_message_whole() {
        let msg = format!("{}: outside the --root folder", "/a-deep-folder".repeat(40));
        let cases: [(Thrower, &str); 5] = [
            (super::type_error, "TypeError"),
            (super::range_error, "RangeError"),
            (super::syntax_error, "SyntaxError"),
            (super::reference_error, "ReferenceError"),
            (super::internal_error, "InternalError"),
        ];
        for (f, class) in cases {
            assert_eq!(thrown(f, &msg), (class.to_string(), msg.clone()));
        }
        // control: rquickjs' own thrower cuts the same message
        fn cutting(ctx: &Ctx<'_>, msg: &str) -> Error {
            Exception::throw_type(ctx, msg)
        }
        let (class, cut) = thrown(cutting, &msg);
        assert_eq!(class, "TypeError");
        assert!(cut.len() < 256 && msg.starts_with(&cut), "{}", cut.len());
    }
}
