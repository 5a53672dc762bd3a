//! The OAuth2 token of one provider: fetched once, shared by concurrent calls, reused until
//! shortly before it expires, dropped on a 401.

use std::future::Future;
use std::time::Duration;

use std::time::Instant;

use tokio::sync::Mutex;

use super::{PspError, Secret};
use pixgate_pix::apipix::TokenResponse;

/// A token as the calls use it.
#[derive(Debug, Clone)]
pub(super) struct CachedToken {
    pub secret: Secret,
    /// Which fetch it came from, so a 401 drops this token and not a newer one.
    pub generation: u64,
    refresh_at: Instant,
}

#[derive(Debug, Default)]
struct State {
    token: Option<CachedToken>,
    generation: u64,
}

/// One provider's token. The lock is held while a token is fetched, so concurrent calls
/// that find none wait for that fetch instead of each making their own.
#[derive(Debug, Default)]
pub(super) struct TokenCache {
    state: Mutex<State>,
}

/// When a token obtained by a request sent at `asked` and valid for `lifetime` is replaced:
/// a fifth of its lifetime early, at most a minute, so a call never sets out with a token
/// that expires on the way. The lifetime counts from `asked`, since the PSP's clock
/// started no earlier. A token valid for 0 s is not reused.
pub(super) fn refresh_at(asked: Instant, lifetime: Duration) -> Instant {
    let margin = (lifetime / 5).min(Duration::from_secs(60));
    asked + (lifetime - margin)
}

impl TokenCache {
    /// The current token, or the one `fetch` gets (with the instant its request was sent).
    /// A failed fetch is not remembered: the next call tries again. `now` is the clock,
    /// read once the lock is held (a call may have waited for another's fetch).
    pub(super) async fn get_or_fetch<F, Fut>(
        &self,
        now: impl Fn() -> Instant,
        fetch: F,
    ) -> Result<CachedToken, PspError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<(TokenResponse, Instant), PspError>>,
    {
        let mut state = self.state.lock().await;
        if let Some(token) = &state.token
            && now() < token.refresh_at
        {
            return Ok(token.clone());
        }
        let (response, asked) = fetch().await?;
        state.generation += 1;
        let token = CachedToken {
            secret: Secret::new(response.access_token),
            generation: state.generation,
            refresh_at: refresh_at(asked, Duration::from_secs(response.expires_in)),
        };
        state.token = Some(token.clone());
        Ok(token)
    }

    /// Forgets the token of `generation` (a 401 answered it), unless a newer one replaced it.
    pub(super) async fn invalidate(&self, generation: u64) {
        let mut state = self.state.lock().await;
        if state
            .token
            .as_ref()
            .is_some_and(|t| t.generation == generation)
        {
            state.token = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;
    use crate::psp::client::CallOperation;

    fn response(token: &str, expires_in: u64) -> TokenResponse {
        TokenResponse {
            access_token: token.to_owned(),
            token_type: "Bearer".into(),
            expires_in,
            scope: None,
        }
    }

    #[test]
    fn tokens_are_replaced_a_little_early() {
        let t0 = Instant::now();
        let secs = Duration::from_secs;
        assert_eq!(refresh_at(t0, secs(3600)), t0 + secs(3540));
        assert_eq!(refresh_at(t0, secs(300)), t0 + secs(240));
        assert_eq!(refresh_at(t0, secs(10)), t0 + secs(8));
        assert_eq!(refresh_at(t0, secs(0)), t0);
    }

    /// A clock the test moves.
    #[derive(Clone)]
    struct Clock(Arc<std::sync::Mutex<Instant>>);

    impl Clock {
        fn new() -> Self {
            Self(Arc::new(std::sync::Mutex::new(Instant::now())))
        }

        fn now(&self) -> Instant {
            *self.0.lock().unwrap()
        }

        fn advance(&self, by: Duration) {
            *self.0.lock().unwrap() += by;
        }
    }

    #[tokio::test]
    async fn a_token_is_reused_until_shortly_before_it_expires() {
        let cache = TokenCache::default();
        let clock = Clock::new();
        let fetches = AtomicU32::new(0);
        let get = || {
            cache.get_or_fetch(
                || clock.now(),
                || async {
                    let n = fetches.fetch_add(1, Ordering::SeqCst) + 1;
                    Ok((response(&format!("t{n}"), 300), clock.now()))
                },
            )
        };
        assert_eq!(get().await.unwrap().secret.expose(), "t1");
        clock.advance(Duration::from_secs(239));
        assert_eq!(get().await.unwrap().secret.expose(), "t1");
        clock.advance(Duration::from_secs(1));
        assert_eq!(get().await.unwrap().secret.expose(), "t2");
        assert_eq!(fetches.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_401_drops_only_the_token_it_answered() {
        let cache = TokenCache::default();
        let fetches = AtomicU32::new(0);
        let get = || {
            cache.get_or_fetch(Instant::now, || async {
                let n = fetches.fetch_add(1, Ordering::SeqCst) + 1;
                Ok((response(&format!("t{n}"), 3600), Instant::now()))
            })
        };
        let first = get().await.unwrap();
        cache.invalidate(first.generation).await;
        let second = get().await.unwrap();
        assert_eq!(second.secret.expose(), "t2");
        // A call that still held the first token saw its 401 late: the new one stays.
        cache.invalidate(first.generation).await;
        assert_eq!(get().await.unwrap().secret.expose(), "t2");
        assert_eq!(fetches.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn failures_are_not_cached_and_concurrent_calls_share_a_fetch() {
        let cache = Arc::new(TokenCache::default());
        let failed = cache
            .get_or_fetch(Instant::now, || async {
                Err(PspError::Timeout {
                    operation: CallOperation::Token,
                })
            })
            .await;
        assert!(failed.is_err());
        let fetches = Arc::new(AtomicU32::new(0));
        let calls = (0..8).map(|_| {
            let cache = cache.clone();
            let fetches = fetches.clone();
            tokio::spawn(async move {
                cache
                    .get_or_fetch(Instant::now, || async {
                        fetches.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        Ok((response("shared", 3600), Instant::now()))
                    })
                    .await
                    .map(|t| t.secret.expose().to_owned())
            })
        });
        for call in calls.collect::<Vec<_>>() {
            assert_eq!(call.await.unwrap().unwrap(), "shared");
        }
        assert_eq!(fetches.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn secrets_do_not_print() {
        let token = CachedToken {
            secret: Secret::new("eyJhbGciOi".into()),
            generation: 1,
            refresh_at: Instant::now(),
        };
        assert!(!format!("{token:?}").contains("eyJ"));
    }
}
