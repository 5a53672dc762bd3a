//! The size checks of a call's input and output (DESIGN.md section 9 counts them in bytes of
//! JSON) without writing the JSON. [`within`] first takes an upper bound of the length, which
//! needs only the lengths of the strings: every byte of a string counted as the longest escape
//! (`\u001f`, six bytes), every number as the longest a JSON number of its type can be. Only a
//! value whose bound is over the limit is serialised (to a counter) for its exact length, so
//! the answer is exactly the one serialising gives, and a charge, whose inputs and outputs are
//! a few KiB against limits of 20 and 128 KiB, never pays for the serialisation.

use serde::Serialize;
use serde::ser;

/// `Ok` when `value`'s JSON is at most `limit` bytes, else its exact length.
pub(crate) fn within(value: &impl Serialize, limit: usize) -> Result<(), usize> {
    let mut bound = Bound(0);
    // Counting cannot fail; a value that refuses to serialise is measured exactly below.
    if value.serialize(&mut bound).is_ok() && bound.0 <= limit {
        return Ok(());
    }
    let exact = json_len(value);
    if exact <= limit { Ok(()) } else { Err(exact) }
}

/// The exact length of `value`'s JSON, serialised to a counter.
pub(crate) fn json_len(value: &impl Serialize) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    // Serialising plain records to a counter cannot fail.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

/// An upper bound of a value's JSON length, accumulated as serde walks the value.
struct Bound(usize);

/// The longest escape of one byte of a string (`\u001f`).
const ESCAPE: usize = 6;
/// The longest JSON number (`-9223372036854775808`, or an `f64` like
/// `-1.7976931348623157e308`), quoted as a map key would be.
const NUMBER: usize = 26;

impl Bound {
    fn add(&mut self, n: usize) -> Result<(), serde_json::Error> {
        self.0 = self.0.saturating_add(n);
        Ok(())
    }

    fn string(&mut self, len: usize) -> Result<(), serde_json::Error> {
        self.add(len.saturating_mul(ESCAPE).saturating_add(2))
    }
}

impl<'a> ser::Serializer for &'a mut Bound {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = &'a mut Bound;
    type SerializeTuple = &'a mut Bound;
    type SerializeTupleStruct = &'a mut Bound;
    type SerializeTupleVariant = &'a mut Bound;
    type SerializeMap = &'a mut Bound;
    type SerializeStruct = &'a mut Bound;
    type SerializeStructVariant = &'a mut Bound;

    fn serialize_bool(self, _: bool) -> Result<(), Self::Error> {
        self.add(7) // `"false"` as a key
    }
    fn serialize_i8(self, _: i8) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_i16(self, _: i16) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_i32(self, _: i32) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_i64(self, _: i64) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_i128(self, _: i128) -> Result<(), Self::Error> {
        self.add(2 * NUMBER)
    }
    fn serialize_u8(self, _: u8) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_u16(self, _: u16) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_u32(self, _: u32) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_u64(self, _: u64) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_u128(self, _: u128) -> Result<(), Self::Error> {
        self.add(2 * NUMBER)
    }
    fn serialize_f32(self, _: f32) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_f64(self, _: f64) -> Result<(), Self::Error> {
        self.add(NUMBER)
    }
    fn serialize_char(self, c: char) -> Result<(), Self::Error> {
        self.string(c.len_utf8())
    }
    fn serialize_str(self, v: &str) -> Result<(), Self::Error> {
        self.string(v.len())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Self::Error> {
        // An array of numbers of up to three digits and a comma each.
        self.add(v.len().saturating_mul(4).saturating_add(2))
    }
    fn serialize_none(self) -> Result<(), Self::Error> {
        self.add(4)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Self::Error> {
        self.add(4)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Self::Error> {
        self.add(4)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), Self::Error> {
        self.string(variant.len())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        // `{"variant":value}`
        self.string(variant.len())?;
        self.add(3)?;
        value.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Self::Error> {
        self.add(2)?;
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Self::Error> {
        self.add(2)?;
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Self::Error> {
        self.add(2)?;
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self, Self::Error> {
        // `{"variant":[...]}`
        self.string(variant.len())?;
        self.add(5)?;
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Self::Error> {
        self.add(2)?;
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Self::Error> {
        self.add(2)?;
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self, Self::Error> {
        // `{"variant":{...}}`
        self.string(variant.len())?;
        self.add(5)?;
        Ok(self)
    }
}

// Each element, key or field adds its separator (`,` or `:`) on top of its own bound.
impl ser::SerializeSeq for &mut Bound {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.add(1)?;
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl ser::SerializeTuple for &mut Bound {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.add(1)?;
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for &mut Bound {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.add(1)?;
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for &mut Bound {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.add(1)?;
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl ser::SerializeMap for &mut Bound {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Self::Error> {
        self.add(1)?;
        key.serialize(&mut **self)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Self::Error> {
        self.add(1)?;
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Bound {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        // `,"key":`: field names are plain identifiers, written as they are.
        self.add(key.len() + 4)?;
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Bound {
    type Ok = ();
    type Error = serde_json::Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Self::Error> {
        self.add(key.len() + 4)?;
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Self::Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    enum Kind {
        Plain,
        Wrapped(String),
        Pair(u8, i64),
        Record { a_field: Option<f64> },
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Sample {
        text: String,
        count: i64,
        big: u64,
        ratio: f64,
        flag: bool,
        missing: Option<String>,
        kinds: Vec<Kind>,
        map: BTreeMap<String, u32>,
        numbers: BTreeMap<i32, bool>,
        bytes: serde_bytes_like::Bytes,
        unit: (),
        ch: char,
    }

    mod serde_bytes_like {
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    fn bound(value: &impl Serialize) -> usize {
        let mut bound = Bound(0);
        value.serialize(&mut bound).unwrap();
        bound.0
    }

    fn sample(text: &str) -> Sample {
        Sample {
            text: text.to_owned(),
            count: i64::MIN,
            big: u64::MAX,
            ratio: -f64::MAX,
            flag: false,
            missing: None,
            kinds: vec![
                Kind::Plain,
                Kind::Wrapped("\u{1f}\"\\".into()),
                Kind::Pair(255, -1),
                Kind::Record { a_field: None },
                Kind::Record {
                    a_field: Some(f64::MIN_POSITIVE),
                },
            ],
            map: [("\n".to_owned(), u32::MAX), ("ключ".to_owned(), 0)].into(),
            numbers: [(i32::MIN, true)].into(),
            bytes: serde_bytes_like::Bytes(vec![255, 0, 10]),
            unit: (),
            ch: '\u{7}',
        }
    }

    #[test]
    fn the_bound_is_never_under_the_json_length() {
        // Worst cases: every byte escaped, the longest numbers, map keys quoted.
        for text in [
            "",
            "plain",
            "\u{0}\u{1f}\"\\\n",
            "ação ☃ 𝄞",
            &"\u{1}".repeat(500),
        ] {
            let value = sample(text);
            let exact = json_len(&value);
            assert_eq!(exact, serde_json::to_vec(&value).unwrap().len());
            assert!(
                bound(&value) >= exact,
                "{text:?}: {} < {exact}",
                bound(&value)
            );
        }
    }

    #[test]
    fn within_answers_exactly_as_serialising_does() {
        let value = sample(&"x".repeat(1000));
        let exact = json_len(&value);
        // The bound is far over the exact length here, so the exact length decides near it.
        assert!(bound(&value) > exact + 100);
        assert_eq!(within(&value, exact), Ok(()));
        assert_eq!(within(&value, exact - 1), Err(exact));
        assert_eq!(within(&value, bound(&value)), Ok(()));
        assert_eq!(within(&value, 0), Err(exact));
    }
}
