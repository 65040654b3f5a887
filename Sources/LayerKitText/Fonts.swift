import CText
import Foundation
import LayerKit

/// A font that cannot be used, or text that cannot be laid out.
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A font file that does not exist.
  case fontFileMissing(String)
  /// A file FreeType cannot open as a font (corrupt, or not a font), with FreeType's error code.
  case notAFont(String, code: Int32)
  /// A font without outlines (a bitmap-only font) asked for as the main font.
  case noOutlines(String)
  /// The font stack itself could not start (fontconfig or FreeType failed to initialise).
  case unavailable(String)
  /// A text longer than `Limits.maxTextLength` characters.
  case tooLong(characters: Int)

  public var description: String {
    switch self {
    case .fontFileMissing(let p): "font file \(p) does not exist"
    case .notAFont(let p, let code): "font file \(p) is not a font FreeType can read (FreeType error \(code))"
    case .noOutlines(let p): "font \(p) has no outlines (a bitmap-only font)"
    case .unavailable(let why): "the font stack is unavailable: \(why)"
    case .tooLong(let n):
      "a text of \(n) characters; a text layer lays out at most \(Limits.maxTextLength) (a frame shows far fewer)"
    }
  }
}

/// One font face opened by FreeType at a size of one pixel per font unit, so that shaped
/// advances are in font units (× 64) and outlines are read unscaled and unhinted: the layout
/// does not depend on a size or on hinting settings.
final class Face {
  let face: FT_Face
  let path: String
  let index: Int
  let unitsPerEm: Double
  let ascender: Double
  let descender: Double
  /// The distance between baselines, in font units.
  let lineHeight: Double
  let underlinePosition: Double
  let underlineThickness: Double
  let hasOutlines: Bool
  /// A colour font of bitmap strikes (CBDT/sbix: Noto Color Emoji): its glyphs are images,
  /// at the first strike's size, which `unitsPerEm` and the metrics are then given in.
  let colorBitmaps: Bool
  /// The family name the font reports.
  let family: String
  private var outlines: [UInt32: Path] = [:]

  init(library: FT_Library, path: String, index: Int) throws(TextError) {
    var face: FT_Face?
    let error = FT_New_Face(library, path, FT_Long(index), &face)
    guard error == 0, let face else {
      if !FileManager.default.fileExists(atPath: path) { throw .fontFileMissing(path) }
      throw .notAFont(path, code: error)
    }
    self.face = face
    self.path = path
    self.index = index
    var rec = face.pointee
    hasOutlines = rec.face_flags & FT_Long(LK_FT_FACE_FLAG_SCALABLE) != 0
    colorBitmaps =
      !hasOutlines && rec.face_flags & FT_Long(LK_FT_FACE_FLAG_COLOR) != 0 && rec.num_fixed_sizes > 0
      && FT_Select_Size(face, 0) == 0
    rec = face.pointee
    if colorBitmaps, let size = rec.size?.pointee {
      // Metrics of the strike, in its pixels (26.6).
      let ppem = Double(size.metrics.y_ppem)
      unitsPerEm = ppem
      ascender = Double(size.metrics.ascender) / 64
      descender = Double(size.metrics.descender) / 64
      lineHeight = max(Double(size.metrics.height) / 64, ascender - descender)
      underlinePosition = -ppem / 10
      underlineThickness = ppem / 20
    } else {
      let upem = hasOutlines ? Double(rec.units_per_EM) : 1000
      unitsPerEm = upem
      ascender = hasOutlines ? Double(rec.ascender) : 800
      descender = hasOutlines ? Double(rec.descender) : -200
      lineHeight = hasOutlines ? max(Double(rec.height), ascender - descender) : 1200
      underlinePosition = hasOutlines ? Double(rec.underline_position) : -100
      underlineThickness = hasOutlines ? max(Double(rec.underline_thickness), upem / 20) : 50
    }
    family = rec.family_name.map { String(cString: $0) } ?? (path as NSString).lastPathComponent
    if hasOutlines {
      // One pixel per font unit: HarfBuzz (through raqm) then positions glyphs in font units.
      FT_Set_Char_Size(face, 0, FT_F26Dot6(rec.units_per_EM) * 64, 72, 72)
    }
  }

  deinit { FT_Done_Face(face) }

  /// Whether the face has a glyph for `scalar`.
  func has(_ scalar: Unicode.Scalar) -> Bool { FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0 }

  /// A colour glyph's image (premultiplied RGBA) and where its top-left corner lies from the
  /// pen, in strike pixels (x right, y up); nil for a glyph without one.
  func colorImage(_ glyph: UInt32) -> (image: Image, left: Double, top: Double)? {
    if let cached = images[glyph] { return cached }
    var result: (Image, Double, Double)?
    if colorBitmaps, FT_Load_Glyph(face, glyph, Int32(LK_FT_LOAD_COLOR)) == 0, let slot = face.pointee.glyph {
      let bitmap = slot.pointee.bitmap
      let (w, h) = (Int(bitmap.width), Int(bitmap.rows))
      if bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), w > 0, h > 0, let buffer = bitmap.buffer {
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let pitch = Int(bitmap.pitch)
        for y in 0..<h {
          for x in 0..<w {
            let s = buffer + (y * pitch + x * 4)
            let o = (y * w + x) * 4
            // FreeType's BGRA is premultiplied, as an Image is.
            (pixels[o], pixels[o + 1], pixels[o + 2], pixels[o + 3]) = (s[2], s[1], s[0], s[3])
          }
        }
        if let image = try? Image(width: w, height: h, pixels: pixels) {
          result = (image, Double(slot.pointee.bitmap_left), Double(slot.pointee.bitmap_top))
        }
      }
    }
    images[glyph] = result
    return result
  }
  private var images: [UInt32: (image: Image, left: Double, top: Double)?] = [:]

  /// The outline of glyph `glyph` in font units, y up (empty for a glyph with no outline: a
  /// space, or a bitmap-only glyph).
  func outline(_ glyph: UInt32) -> Path {
    if let cached = outlines[glyph] { return cached }
    var path = Path()
    let flags = Int32(LK_FT_LOAD_NO_SCALE | LK_FT_LOAD_NO_HINTING | LK_FT_LOAD_NO_BITMAP)
    if hasOutlines, FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph,
      slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE
    {
      path = Face.decompose(&slot.pointee.outline)
    }
    outlines[glyph] = path
    return path
  }

  /// FreeType's outline as a Path: each contour closed, conic arcs as quadratic curves.
  private static func decompose(_ outline: UnsafeMutablePointer<FT_Outline>) -> Path {
    final class Builder {
      var path = Path()
      var open = false
      func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
        Point(x: Double(v?.pointee.x ?? 0), y: Double(v?.pointee.y ?? 0))
      }
    }
    let builder = Builder()
    var funcs = FT_Outline_Funcs(
      move_to: { to, user in
        let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
        if b.open { b.path.closeSubpath() }
        b.path.move(to: b.point(to))
        b.open = true
        return 0
      },
      line_to: { to, user in
        let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
        b.path.addLine(to: b.point(to))
        return 0
      },
      conic_to: { control, to, user in
        let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
        b.path.addQuadCurve(to: b.point(to), control: b.point(control))
        return 0
      },
      cubic_to: { c1, c2, to, user in
        let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
        b.path.addCurve(to: b.point(to), control1: b.point(c1), control2: b.point(c2))
        return 0
      },
      shift: 0, delta: 0)
    _ = withExtendedLifetime(builder) {
      FT_Outline_Decompose(outline, &funcs, Unmanaged.passUnretained(builder).toOpaque())
    }
    if builder.open { builder.path.closeSubpath() }
    return builder.path
  }
}

/// A font asked for by name or file: its face and, for a family, the fallbacks fontconfig
/// orders after it (for characters it lacks).
struct ResolvedFont {
  var primary: Face
  /// Font files (path, index) in fontconfig's order of preference, after the primary.
  var fallbacks: [(path: String, index: Int)]
}
