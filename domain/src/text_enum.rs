//! [`text_enum!`](crate::text_enum): the one way an enum that is stored, sent and documented
//! as text is written, in this crate and in the server (states, roles, kinds, steps, event
//! types, PSP call names). The names in rows, in JSON and in the OpenAPI documents are the
//! same literal.

/// Writes an enum stored as text: `as_str`, `Display`, `FromStr`, and `TryFrom<String>` for
/// reading a column (`field: try_from(String)` in `db::from_row!`); an unknown name is a
/// corrupt row, not a panic. `ALL` is every variant in declaration order, an array (its
/// `Ord` is that order too). The names are `tt`, not `literal`: utoipa does not see a
/// `literal` fragment's string in `#[serde(rename)]`, and the OpenAPI document would show the
/// variant names. The enum's attributes come after the derive, so they may be the derives'
/// (`#[schema(as = OtherName)]` when a schema of that name exists already).
#[macro_export]
macro_rules! text_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:tt),* $(,)? }) => {
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            ::serde::Serialize, ::serde::Deserialize, ::utoipa::ToSchema,
        )]
        $(#[$meta])*
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),*
        }

        impl $name {
            pub const ALL: [$name; [$($text),*].len()] = [$($name::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),* }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok($name::$variant),)*
                    other => Err(format!("`{other}` is not a {}", stringify!($name))),
                }
            }
        }

        impl TryFrom<String> for $name {
            type Error = String;

            fn try_from(s: String) -> Result<Self, String> {
                s.parse()
            }
        }
    };
}
