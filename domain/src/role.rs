//! The roles of the admin API's operators (DESIGN.md section 13), as the host checks them and
//! stores them (`operators.role`).

use crate::text_enum;

text_enum!(
    /// What an operator may do on the admin API, each role including the one before
    /// (`viewer < tester < operator < admin`); the host's `http::auth::required_role` says
    /// which route needs which.
    Role {
        /// Reads everything except secrets.
        Viewer = "viewer",
        /// Also dry runs (evaluate, replays) and shadow candidates.
        Tester = "tester",
        /// Also components, activation, rollback, kill switch, stores, gateways, resolutions and
        /// webhook resends.
        Operator = "operator",
        /// Also merchants, API keys, providers and operators.
        Admin = "admin",
    }
);
