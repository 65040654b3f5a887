import Foundation
import LayerKit

/// YUV4MPEG2 ("Y4M") output: a one-line text header, then per frame the line `FRAME` and the
/// frame's planes (`YUVFrameLayout`: Y', Cb, Cr, 8-bit, tightly packed). ffmpeg reads it from a
/// pipe with no options (`ffmpeg -f yuv4mpegpipe -i -`, or just `-i -`), which is why LayerKit
/// feeds encoders with it.
///
/// The header this writer makes, tag by tag (separated by single spaces, ended by `\n`):
/// - `YUV4MPEG2` — the signature.
/// - `W<width> H<height>` — the frame size in pixels.
/// - `F<num>:<den>` — frames per second as a fraction (`FrameRate`).
/// - `Ip` — progressive frames.
/// - `A1:1` — square pixels.
/// - `C420jpeg` or `C444` — the planes' sampling; `420jpeg` is 4:2:0 with chroma sited at the
///   centre of each 2×2 block, which is what `YUVConversion` computes.
/// - `XCOLORRANGE=LIMITED` — 16…235 / 16…240 ("TV") levels; ffmpeg (5.1 checked) reads it
///   into the stream's colour range.
/// - `XLAYERKIT_MATRIX=BT709` or `BT601` — the Y'CbCr matrix, when it fits (below). Y4M has no
///   standard tag for it and ffmpeg ignores unknown `X` tags: a reader takes the matrix its size
///   implies (BT.601 up to 1024 × 576, BT.709 above; `YCbCrMatrix.untagged`). The writer writes
///   BT.709 unless given another matrix (`matrix:`, converted from BT.709); LayerKit's Y4M
///   outputs are given the one their size implies. The tag records it for people and for
///   `Y4MReader`.
///
/// **ffmpeg's header limit.** ffmpeg 5.1's Y4M demuxer refuses a header line longer than 95
/// bytes before its `\n` ("Header too large"; checked against /usr/bin/ffmpeg). ffmpeg's own
/// muxer also writes `XYSCSS=420JPEG` (mjpegtools' pre-`C`-tag spelling of the sampling, which
/// ffmpeg's demuxer reads only when there is no `C` tag); it is left out here to make room for
/// the matrix tag, which is itself left out when the line would pass 95 bytes. It fits up to
/// 4-digit sizes with NTSC rates up to 120000/1001 (`W3840 H2160 F120000:1001` makes 94 bytes);
/// without it, the line fits for every size and `FrameRate`. Apart from those two tags the
/// header is byte for byte what ffmpeg's muxer writes for `yuv420p` / `yuv444p` with square
/// pixels and limited range (a test compares them).
public struct Y4MWriter: Sendable {
  /// The frames' layout: size and chroma sampling.
  public let layout: YUVFrameLayout
  public let frameRate: FrameRate
  /// The opaque colour translucent pixels are composited over (see `YUVConversion`).
  public let background: YUVConversion.Background
  /// The matrix the planes are written in: BT.709 (LayerKit's) unless told; a Y4M output is
  /// told the one its readers assume for its size (`OutputPlan.matrix(width:height:)`,
  /// `YCbCrMatrix.untagged`).
  public let matrix: YCbCrMatrix
  /// From LayerKit's BT.709 to `matrix`; nil when they are the same.
  public var rematrix: YCbCrRematrix? { YCbCrRematrix.fromBT709(to: matrix) }

  /// The line that starts every frame.
  public static let frameHeader = Data("FRAME\n".utf8)

  /// The longest header line (without its `\n`) ffmpeg 5.1's Y4M demuxer reads.
  public static let maxFFmpegHeaderLength = 95

  /// The header line (with its `\n`) for a stream of `width × height` frames; see the type's
  /// documentation for its tags. Sizes are written as given: `init` is where they are checked.
  public static func header(
    width: Int, height: Int, frameRate: FrameRate, chroma: ChromaSubsampling, matrix: YCbCrMatrix? = nil
  ) -> Data {
    let sampling = chroma == .yuv420 ? "C420jpeg" : "C444"
    var line =
      "YUV4MPEG2 W\(width) H\(height) F\(frameRate.numerator):\(frameRate.denominator) Ip A1:1 "
      + "\(sampling) XCOLORRANGE=LIMITED"
    let matrix = " XLAYERKIT_MATRIX=\((matrix ?? .bt709).tag)"
    if line.utf8.count + matrix.utf8.count <= maxFFmpegHeaderLength { line += matrix }
    return Data((line + "\n").utf8)
  }

  /// A writer for `width × height` frames.
  /// - Throws: `.tooLarge` (path `"<memory>"`) for a size `Image.validate` refuses,
  ///   `.oddSizeForChromaSubsampling` for 4:2:0 with an odd width or height.
  public init(
    width: Int, height: Int, frameRate: FrameRate, chroma: ChromaSubsampling,
    background: YUVConversion.Background = (0, 0, 0), matrix: YCbCrMatrix? = nil
  ) throws(MediaError) {
    do {
      try Image.validate(width: width, height: height)
    } catch {
      throw .tooLarge(path: "<memory>", width: width, height: height)
    }
    if chroma == .yuv420 && (width % 2 != 0 || height % 2 != 0) {
      throw .oddSizeForChromaSubsampling(width: width, height: height)
    }
    self.layout = YUVFrameLayout(width: width, height: height, chroma: chroma)
    self.frameRate = frameRate
    self.background = background
    self.matrix = matrix ?? .bt709
  }

  /// This stream's header line (`Y4MWriter.header(width:height:frameRate:chroma:)`).
  public var header: Data {
    Y4MWriter.header(
      width: layout.width, height: layout.height, frameRate: frameRate, chroma: layout.chroma, matrix: matrix)
  }

  /// Bytes of one encoded frame: `FRAME\n` and the planes.
  public var frameByteCount: Int { Y4MWriter.frameHeader.count + layout.byteCount }

  /// Writes one frame, `FRAME\n` then the converted planes, into `buffer`, ready to go to a file
  /// or a pipe in one write. Reusing one buffer for every frame saves allocating (and
  /// page-faulting) ~3 MiB per 1080p frame.
  /// - Parameters:
  ///   - image: a frame of exactly this stream's size.
  ///   - buffer: exactly `frameByteCount` bytes.
  /// - Throws: `.sizeMismatch` when the image is not the stream's size, `.bufferSizeMismatch`
  ///   when the buffer is not `frameByteCount` bytes.
  public func encodeFrame(_ image: Image, into buffer: UnsafeMutableRawBufferPointer) throws(MediaError) {
    guard image.width == layout.width, image.height == layout.height else {
      throw .sizeMismatch(
        expectedWidth: layout.width, expectedHeight: layout.height, actualWidth: image.width,
        actualHeight: image.height)
    }
    guard buffer.count == frameByteCount else {
      throw .bufferSizeMismatch(expected: frameByteCount, actual: buffer.count)
    }
    let marker = Y4MWriter.frameHeader.count
    Y4MWriter.frameHeader.withUnsafeBytes { buffer.copyMemory(from: $0) }
    let planes = UnsafeMutableRawBufferPointer(rebasing: buffer[marker...])
    try YUVConversion.convert(image, background: background, chroma: layout.chroma, into: planes)
    rematrix?.apply(planes, layout: layout)
  }

  /// One frame, `FRAME\n` then the planes, as new bytes (see `encodeFrame(_:into:)`).
  /// - Throws: `.sizeMismatch` when the image is not the stream's size.
  public func encodeFrame(_ image: Image) throws(MediaError) -> Data {
    var data = Data(count: frameByteCount)
    var failure: MediaError?
    data.withUnsafeMutableBytes { buffer in
      do throws(MediaError) {
        try encodeFrame(image, into: buffer)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return data
  }
}
