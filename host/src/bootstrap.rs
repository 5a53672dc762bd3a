//! First start and every start: data dir, master key, database (migrated), first-start
//! seeding (sandbox gateway catalog, admin token, demo merchant). [`crate::app`] builds the
//! service on what this prepares.

use std::path::Path;

use anyhow::Context;
use pixgate_domain::{StoreMode, sha256_hex};

use crate::access::Scope;
use crate::config::ServeConfig;
use crate::crypto::{self, MasterKey};
use crate::db::{self, Db, catalog, keys, settings};

/// Secrets created on this start, to show once.
#[derive(Debug, Default, Clone)]
pub struct Generated {
    pub admin_token: Option<String>,
    pub demo: Option<DemoSeed>,
}

#[derive(Debug, Clone)]
pub struct DemoSeed {
    pub merchant: String,
    pub store: String,
    pub api_key: String,
}

/// What start-up prepared: the migrated database, the master key, the admin token's hash
/// and the secrets generated on this start.
pub struct Prepared {
    pub db: Db,
    pub master_key: MasterKey,
    pub admin_token_hash: String,
    pub generated: Generated,
    /// The SQLite file's lock, held while the server runs (see [`Db::lock_sqlite_file`]).
    pub instance_lock: Option<std::fs::File>,
}

const ADMIN_TOKEN_SETTING: &str = "admin_token_sha256";

/// Opens (and migrates) the database and seeds a new one.
pub async fn prepare(config: &ServeConfig) -> anyhow::Result<Prepared> {
    std::fs::create_dir_all(&config.data.data_dir)
        .with_context(|| format!("creating the data dir {}", config.data.data_dir.display()))?;
    let master_key = match &config.data.master_key {
        Some(key) => MasterKey::from_base64(key).context("PIXGATE_MASTER_KEY")?,
        None => load_or_create_master_key(&config.data.data_dir)?,
    };
    let url = config.data.database_url();
    let instance_lock = Db::lock_sqlite_file(&url)?;
    let db = Db::open(&url, config.db_max_connections, config.migrate)
        .await
        .with_context(|| format!("opening the database ({})", redact_url(&url)))?;

    let mut generated = Generated::default();
    let mut tx = db.write.begin().await?;
    let new_database =
        settings::insert_if_absent(&mut *tx, "initialized", &db::now_ms().to_string()).await?;
    if new_database {
        seed_gateway_catalog(&mut tx).await?;
        if config.admin_token.is_none() {
            let token = format!("pxa_{}", crypto::random_token()?);
            settings::insert_if_absent(&mut *tx, ADMIN_TOKEN_SETTING, &sha256_hex(&token)).await?;
            write_private(&config.data.data_dir.join("admin-token"), &token)?;
            generated.admin_token = Some(token);
        }
    }
    if config.demo.unwrap_or(new_database)
        && catalog::merchant_by_code(&mut *tx, "demo").await?.is_none()
    {
        generated.demo = Some(seed_demo(&mut tx).await?);
    }
    tx.commit().await?;

    let admin_token_hash = match &config.admin_token {
        Some(token) => sha256_hex(token),
        None => settings::get(&db.read, ADMIN_TOKEN_SETTING)
            .await?
            .context("this database has no admin token of its own: set PIXGATE_ADMIN_TOKEN")?,
    };

    Ok(Prepared {
        db,
        master_key,
        admin_token_hash,
        generated,
        instance_lock,
    })
}

/// `postgres://user:password@host/db` without the password, for error messages. Read with
/// the `url` crate (a password may hold `@` or `:`); what it cannot read is not shown at all.
fn redact_url(raw: &str) -> String {
    match url::Url::parse(raw) {
        Ok(mut url) => {
            if url.password().is_some() {
                // Only a URL that cannot have a password refuses one.
                let _ = url.set_password(Some("***"));
            }
            url.to_string()
        }
        Err(_) => "an unreadable database URL".to_owned(),
    }
}

fn write_private(path: &Path, contents: &str) -> anyhow::Result<()> {
    use std::io::Write;
    #[cfg(unix)]
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    options.mode(0o600);
    let mut file = options
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    file.write_all(contents.as_bytes())?;
    Ok(())
}

fn load_or_create_master_key(data_dir: &Path) -> anyhow::Result<MasterKey> {
    let path = data_dir.join("master.key");
    if let Ok(text) = std::fs::read_to_string(&path) {
        return MasterKey::from_base64(&text).with_context(|| format!("{}", path.display()));
    }
    let key = MasterKey::generate()?;
    write_private(&path, &key)?;
    Ok(MasterKey::from_base64(&key)?)
}

/// The sandbox catalog every new database starts with: two providers, D0 and D1/D30
/// gateways with different fee terms, so a fresh SHADOW store routes meaningfully.
async fn seed_gateway_catalog(tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> anyhow::Result<()> {
    let now = db::now_ms();
    let gateways = [
        ("sandbox-a", "sandbox-a-d0", "D0", 139, 0, 5, None),
        ("sandbox-a", "sandbox-a-d1", "D1", 99, 0, 5, None),
        ("sandbox-b", "sandbox-b-d0", "D0", 119, 10, 0, Some(2_000)),
        ("sandbox-b", "sandbox-b-d30", "D30", 49, 0, 0, None),
    ];
    for (provider, alias, class, mdr, fixed, min, max) in gateways {
        catalog::insert_gateway(
            &mut **tx,
            &catalog::Gateway {
                id: uuid::Uuid::now_v7().to_string(),
                provider_code: provider.into(),
                alias: alias.into(),
                release_class: class.into(),
                mdr_bps: mdr,
                fixed_centavos: fixed,
                min_fee_centavos: min,
                max_fee_centavos: max,
                active: db::Flag(true),
                created_at: now,
                updated_at: now,
            },
        )
        .await?;
    }
    Ok(())
}

/// A new API key: `pxg_<12 hex prefix>_<43 random characters>`; the prefix is not secret.
pub fn new_api_key() -> Result<(String, String), crypto::CryptoError> {
    let prefix = hex::encode(crypto::random_bytes::<6>()?);
    let key = format!("pxg_{prefix}_{}", crypto::random_token()?);
    Ok((prefix, key))
}

async fn seed_demo(tx: &mut sqlx::Transaction<'_, sqlx::Any>) -> anyhow::Result<DemoSeed> {
    let now = db::now_ms();
    let merchant = catalog::Merchant {
        id: uuid::Uuid::now_v7().to_string(),
        code: "demo".into(),
        name: "Demo merchant".into(),
        created_at: now,
    };
    catalog::insert_merchant(&mut **tx, &merchant).await?;
    let store = catalog::Store {
        id: uuid::Uuid::now_v7().to_string(),
        merchant_id: merchant.id.clone(),
        code: "demo-store".into(),
        name: "Demo store".into(),
        mode: StoreMode::Shadow,
        live_enabled: db::Flag(false),
        config: "{}".into(),
        charge_expiry_seconds: 86_400,
        created_at: now,
        updated_at: now,
    };
    catalog::insert_store(&mut **tx, &store).await?;
    let (prefix, api_key) = new_api_key()?;
    let key = keys::ApiKey {
        id: uuid::Uuid::now_v7().to_string(),
        merchant_id: merchant.id.clone(),
        prefix,
        scopes: Scope::join(&Scope::DEFAULT),
        created_at: now,
        revoked_at: None,
    };
    keys::insert(&mut **tx, &key, &sha256_hex(&api_key)).await?;
    keys::grant_store(&mut **tx, &key.id, &store.id).await?;
    Ok(DemoSeed {
        merchant: merchant.code,
        store: store.code,
        api_key,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn database_passwords_are_redacted() {
        assert_eq!(
            super::redact_url("postgres://app:s3cret@db:5432/pixgate"),
            "postgres://app:***@db:5432/pixgate"
        );
        assert_eq!(super::redact_url("sqlite://x.db"), "sqlite://x.db");
        // The last `@` ends the user info: a password holding `@` or `:` is hidden whole.
        assert_eq!(
            super::redact_url("postgres://app:p@ss:w@db/pixgate"),
            "postgres://app:***@db/pixgate"
        );
        assert_eq!(
            super::redact_url("postgres//app:s3cret@db"),
            "an unreadable database URL"
        );
    }
}
