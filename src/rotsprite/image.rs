// re2d — borrowed RGBA8 input image with a row stride (spec: c-abi.md §3, §7 rule 8).
//
//! The atlas view every decoder and the v1 raster read from. Pixels are
//! addressed exactly as `row*stride + 4*col` (64-bit offsets, no clamping to
//! the width), as the existing library does.

/// Why an image view could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageError {
    /// Width or height not positive.
    BadSize,
    /// `stride < 4*w`.
    BadStride,
    /// The buffer is shorter than `(h-1)*stride + 4*w` bytes.
    TooShort,
}

impl std::fmt::Display for ImageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ImageError::BadSize => "image width and height must be positive",
            ImageError::BadStride => "stride is smaller than 4*width",
            ImageError::TooShort => "buffer is shorter than (h-1)*stride + 4*w bytes",
        })
    }
}

impl std::error::Error for ImageError {}

/// A read-only RGBA8 image: `h` rows of `stride` bytes, `w` pixels used per row.
#[derive(Clone, Copy, Debug)]
pub struct AtlasImage<'a> {
    data: &'a [u8],
    /// Width in pixels.
    pub w: i32,
    /// Height in pixels.
    pub h: i32,
    /// Bytes per row.
    pub stride: usize,
}

impl<'a> AtlasImage<'a> {
    /// Bytes a `w`×`h` image with this stride needs: `(h-1)*stride + 4*w`.
    pub fn required_len(w: i32, h: i32, stride: i32) -> Result<usize, ImageError> {
        if w <= 0 || h <= 0 {
            return Err(ImageError::BadSize);
        }
        if (stride as i64) < 4 * w as i64 {
            return Err(ImageError::BadStride);
        }
        Ok((h as usize - 1) * stride as usize + 4 * w as usize)
    }

    /// Wraps `data` (at least [`Self::required_len`] bytes).
    pub fn new(data: &'a [u8], w: i32, h: i32, stride: i32) -> Result<Self, ImageError> {
        if data.len() < Self::required_len(w, h, stride)? {
            return Err(ImageError::TooShort);
        }
        Ok(AtlasImage {
            data,
            w,
            h,
            stride: stride as usize,
        })
    }

    /// The 4 bytes at `row*stride + 4*col` (the column may be `w`, reading
    /// into padding or the next row, as the anime decoder's edge read does).
    #[inline]
    pub fn pixel_at(&self, col: i64, row: i64) -> [u8; 4] {
        let off = row as usize * self.stride + 4 * col as usize;
        let b = &self.data[off..off + 4];
        [b[0], b[1], b[2], b[3]]
    }

    /// The raw bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }
}
