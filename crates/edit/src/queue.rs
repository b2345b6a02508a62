//! The previews, newest first: one worker thread cuts one declaration at a time; a preview
//! asked for while another waits replaces it (the waiting one is answered "superseded" at
//! once), and the one being cut stops at its next stage when a newer one arrives
//! ([`re2d_rig::cut::preview::preview`] checks between the ownership, the confidence and the
//! warnings). So a burst of changes costs at most the stage in progress plus the newest change.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};

/// What became of a preview.
pub enum Outcome<T> {
    /// Its result.
    Done(T),
    /// A newer preview replaced it.
    Superseded,
    /// The preview panicked (a bug: answered 500; the worker goes on).
    Panicked,
}

struct Job<A, T> {
    seq: u64,
    ask: A,
    reply: SyncSender<Outcome<T>>,
}

struct Shared<A, T> {
    pending: Mutex<Option<Job<A, T>>>,
    ready: Condvar,
    /// The newest preview asked for.
    latest: AtomicU64,
}

/// The queue of previews: `A` is what one asks for, `T` what it gives.
pub struct Queue<A, T> {
    shared: Arc<Shared<A, T>>,
}

/// What the worker runs: the ask, and whether it is no longer the newest (`None`: it stopped).
pub type Work<A, T> = dyn Fn(&A, &dyn Fn() -> bool) -> Option<T> + Send + Sync;

impl<A: Send + 'static, T: Send + 'static> Queue<A, T> {
    /// A queue whose worker thread runs `work` (`None`: cancelled).
    pub fn new(work: Arc<Work<A, T>>) -> Queue<A, T> {
        let shared = Arc::new(Shared {
            pending: Mutex::new(None),
            ready: Condvar::new(),
            latest: AtomicU64::new(0),
        });
        let s = shared.clone();
        std::thread::Builder::new()
            .name("re2d-edit-preview".into())
            .spawn(move || worker(&s, &*work))
            .expect("the preview thread starts");
        Queue { shared }
    }

    /// Asks for a preview and waits for it (or for a newer one to replace it).
    pub fn ask(&self, ask: A) -> Outcome<T> {
        let (tx, rx) = sync_channel(1);
        let seq = self.shared.latest.fetch_add(1, Ordering::SeqCst) + 1;
        {
            let mut p = self
                .shared
                .pending
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if let Some(old) = p.take() {
                let _ = old.reply.send(Outcome::Superseded);
            }
            *p = Some(Job {
                seq,
                ask,
                reply: tx,
            });
        }
        self.shared.ready.notify_one();
        rx.recv().unwrap_or(Outcome::Superseded)
    }
}

fn worker<A, T>(s: &Shared<A, T>, work: &Work<A, T>) {
    loop {
        let job = {
            let mut p = s.pending.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(j) = p.take() {
                    break j;
                }
                p = s.ready.wait(p).unwrap_or_else(|e| e.into_inner());
            }
        };
        let stale = || s.latest.load(Ordering::SeqCst) != job.seq;
        let out = if stale() {
            Outcome::Superseded
        } else {
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&job.ask, &stale)))
            {
                Ok(Some(t)) => Outcome::Done(t),
                Ok(None) => Outcome::Superseded,
                Err(_) => Outcome::Panicked,
            }
        };
        let _ = job.reply.send(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{Receiver, channel};

    type Gated = (
        Arc<Queue<u32, (u32, bool)>>,
        std::sync::mpsc::Sender<()>,
        Receiver<u32>,
    );

    /// A queue whose work waits for a go signal per ask and reports whether it was stale.
    fn gated() -> Gated {
        let (go_tx, go_rx) = channel::<()>();
        let (started_tx, started_rx) = channel::<u32>();
        let go = Mutex::new(go_rx);
        let started = Mutex::new(started_tx);
        let q = Queue::new(Arc::new(move |a: &u32, stale: &dyn Fn() -> bool| {
            let _ = started.lock().unwrap().send(*a);
            go.lock().unwrap().recv().unwrap();
            // a stage boundary: a stale ask stops here
            if stale() { None } else { Some((*a, false)) }
        }));
        (Arc::new(q), go_tx, started_rx)
    }

    #[test]
    fn a_newer_ask_replaces_the_waiting_one_and_stops_the_running_one() {
        let (q, go, started) = gated();
        let q1 = q.clone();
        let first = std::thread::spawn(move || q1.ask(1));
        assert_eq!(started.recv().unwrap(), 1, "the first ask runs");
        let q2 = q.clone();
        let second = std::thread::spawn(move || q2.ask(2));
        // wait until the second is pending, then ask a third: the second is replaced at once
        while q.shared.pending.lock().unwrap().is_none() {
            std::thread::yield_now();
        }
        let q3 = q.clone();
        let third = std::thread::spawn(move || q3.ask(3));
        assert!(
            matches!(second.join().unwrap(), Outcome::Superseded),
            "the waiting ask"
        );
        // the running one reaches its stage boundary after the third was asked: it stops
        go.send(()).unwrap();
        assert!(
            matches!(first.join().unwrap(), Outcome::Superseded),
            "the running ask"
        );
        assert_eq!(started.recv().unwrap(), 3, "the newest runs next");
        go.send(()).unwrap();
        assert!(matches!(third.join().unwrap(), Outcome::Done((3, false))));
    }

    #[test]
    fn a_lone_ask_is_answered() {
        let (q, go, _started) = gated();
        go.send(()).unwrap();
        assert!(matches!(q.ask(7), Outcome::Done((7, false))));
    }
}
