//! The QR code of a BR Code, as SVG: a self-contained document (no script, no font, nothing
//! fetched) that a merchant can inline in a checkout page or an email and that scales without
//! blurring.
//!
//! Error correction M (15 % of the symbol recoverable) is what PSPs' own codes use: it survives
//! a smudged screen or a partly covered print while keeping a 150-character dynamic code at a
//! size phones read at arm's length. The four-module quiet zone is part of the standard and of
//! the image, so the code reads on any background.

use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};

/// Why a text has no QR code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QrError {
    #[error("the text does not fit in a QR code: {0}")]
    TooLong(String),
}

/// Side of a module, in SVG user units; the document scales, this only sets its default size.
const MODULE_PX: u32 = 8;

/// `text` as a QR code (error correction M, quiet zone included), black on white, as an SVG
/// document. The only failure is a text too long for any QR version (over about 2,300
/// characters at level M; a BR Code is at most 512).
pub fn svg(text: &str) -> Result<String, QrError> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
        .map_err(|e| QrError::TooLong(e.to_string()))?;
    Ok(code
        .render::<svg::Color<'_>>()
        .quiet_zone(true)
        .module_dimensions(MODULE_PX, MODULE_PX)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .build())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draws the SVG with resvg (an independent renderer, not the crate that wrote it) and reads
    /// it back with rqrr (an independent decoder).
    fn decode(svg_text: &str) -> String {
        let tree = resvg::usvg::Tree::from_str(svg_text, &resvg::usvg::Options::default())
            .expect("the SVG parses");
        let size = tree.size().to_int_size();
        let mut pixmap =
            resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a pixmap");
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::default(),
            &mut pixmap.as_mut(),
        );
        let (width, height) = (pixmap.width() as usize, pixmap.height() as usize);
        let pixels = pixmap.data();
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
            let at = (y * width + x) * 4;
            // Transparent counts as white: only what the SVG paints dark is dark.
            let alpha = pixels[at + 3];
            if alpha == 0 { 255 } else { pixels[at] }
        });
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "exactly one QR code in the image");
        let (_meta, content) = grids[0].decode().expect("the QR code decodes");
        content
    }

    #[test]
    fn the_qr_code_decodes_to_exactly_the_br_code() {
        let code = crate::brcode::dynamic(
            "pix.example.com/8b3da2f39a4140d1a91abd93113bd441",
            "Fulano de Tal",
            "BRASILIA",
        )
        .unwrap();
        let image = svg(&code).unwrap();
        assert!(image.contains("<svg"));
        assert!(!image.contains("<script") && !image.contains("href"));
        assert_eq!(decode(&image), code);
    }

    #[test]
    fn a_long_static_code_with_every_kind_of_character() {
        let code = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
        assert_eq!(decode(&svg(code).unwrap()), code);
        let long = format!("{code}{}", "x".repeat(380));
        assert_eq!(decode(&svg(&long).unwrap()), long);
    }

    #[test]
    fn too_long_for_any_qr_code() {
        assert!(matches!(svg(&"x".repeat(4000)), Err(QrError::TooLong(_))));
    }
}
