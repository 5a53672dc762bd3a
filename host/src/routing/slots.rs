//! A share of the sandbox per merchant: at most `limit` of one merchant's charges run their
//! chain at once. A merchant whose components burn their whole fuel or wall-clock budget on
//! every call (hostile, or just broken) then takes at most that many cores, and the other
//! merchants' charges keep the rest. Charges over the share wait for a slot; they are not
//! refused.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

#[derive(Debug)]
pub struct MerchantSlots {
    limit: usize,
    slots: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl MerchantSlots {
    pub fn new(limit: usize) -> Self {
        Self {
            limit: limit.max(1),
            slots: Mutex::new(HashMap::new()),
        }
    }

    /// The default share: half the cores, at least one.
    pub fn default_limit() -> usize {
        std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
    }

    /// Waits for one of the merchant's slots; it is free again when the permit drops.
    pub async fn acquire(&self, merchant_id: &str) -> OwnedSemaphorePermit {
        let semaphore = {
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            match slots.get(merchant_id) {
                Some(s) => s.clone(),
                None => slots
                    .entry(merchant_id.to_owned())
                    .or_insert_with(|| Arc::new(Semaphore::new(self.limit)))
                    .clone(),
            }
        };
        semaphore
            .acquire_owned()
            .await
            .expect("a merchant's semaphore is never closed")
    }
}

#[cfg(test)]
mod tests {
    use super::MerchantSlots;
    use std::time::Duration;

    #[tokio::test]
    async fn a_merchant_waits_for_its_own_slots_only() {
        let slots = MerchantSlots::new(1);
        let held = slots.acquire("hostile").await;
        let waiting = tokio::time::timeout(Duration::from_millis(50), slots.acquire("hostile"));
        assert!(
            waiting.await.is_err(),
            "a second call of one merchant waits"
        );
        let other = tokio::time::timeout(Duration::from_millis(50), slots.acquire("shop"));
        assert!(other.await.is_ok(), "another merchant does not");
        drop(held);
        let again = tokio::time::timeout(Duration::from_millis(50), slots.acquire("hostile"));
        assert!(again.await.is_ok(), "a freed slot is taken");
    }
}
