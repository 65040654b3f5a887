// LayerKitMedia — images in and out of LayerKit, and image comparison.
//
// What it does:
// - `ImageFile` reads PNG (every colour type, bit depth and Adam7) through libpng's simplified
//   API and JPEG (baseline, progressive, greyscale) through TurboJPEG, sniffing the format from
//   the file's signature, never its extension; it writes RGBA8 PNG atomically.
// - `ImageComparison` measures two same-sized images (max channel delta, a histogram of per-pixel
//   deltas, PSNR), checks them against a `Tolerance` (docs/HOW_IT_WORKS.md's parity tolerance is
//   `Tolerance.parity`) and draws a diff image for a person to look at.
// - `YUVConversion`, `Y4MWriter`, `Y4MReader`: BT.709 limited-range Y'CbCr (4:2:0, 4:4:4) and
//   YUV4MPEG2, written and read by hand (no dependency).
// - `Video/`: videos. Clips are probed and decoded, and encoded outputs written, by the ffmpeg
//   program through pipes (never temporary frames); a `Timeline` says what each frame shows; a
//   `VideoPipeline` runs decode → render → convert → write as stages on their own threads joined
//   by bounded queues, and removes its partial output on any error or signal.
//
// What it does not do:
// - No colour management: pixel values are taken as stored (sRGB-encoded, like Core Animation's
//   default); 16-bit samples are scaled to 8 bits as round(v / 257) with no gamma change; ICC
//   profiles and cHRM are ignored. (One exception, libpng's: a PNG whose gAMA chunk declares a
//   gamma far from sRGB's is converted to sRGB by the simplified API.)
// - No JPEG or 16-bit PNG output, no CMYK JPEG input (`MediaError.unsupportedFormat`).
// - No codec of its own beyond PNG, JPEG and Y4M: everything else goes through ffmpeg
//   (`ProcessError.programNotFound` names the Debian package when it is missing).
//
// Errors: every failure is a `MediaError` naming the file and the reason; malformed, truncated or
// hostile input is an error, never a crash, a hang or a huge allocation (sizes are checked against
// `Image.validate` before any pixel buffer is made).
//
// Lifetime: the image functions cache and share nothing: each call makes and frees its own
// libpng / TurboJPEG state, so they may be called from any thread at the same time. A
// `VideoPipeline` owns its child processes and threads for the length of `run()`; they are all
// stopped and joined before it returns or throws.
