// Headless EGL display selection: surfaceless (Mesa), then device (NVIDIA, Mesa), then GBM on a
// DRM render node. No window system, no DISPLAY.
//
// Lifetime: EGL hands out one EGLDisplay per (platform, native display), so two renderers on the
// surfaceless platform share a display, and eglTerminate on it would pull it from under the other.
// Displays are therefore reference-counted process-wide; the last connection terminates it.

import CEGL
import Foundation
import LayerKitRender

/// Which EGL platform a display came from.
enum EGLPlatformKind: String, CaseIterable, Sendable {
  case surfaceless
  case device
  case gbm
}

/// How many live connections hold each initialized EGLDisplay (keyed by its address).
private let displayUseCounts = Locked<[UInt: Int]>([:])

/// One reference to an initialized EGL display, and the native objects it was made from.
final class EGLDisplayConnection {
  let display: EGLDisplay
  let platform: EGLPlatformKind
  /// The DRM node or device name, when the platform tells.
  let deviceName: String?
  let majorVersion: Int32
  let minorVersion: Int32
  /// For GBM: the render node's file descriptor and device, freed after the display.
  private let gbmDevice: OpaquePointer?
  private let gbmFD: Int32

  /// The environment variable that forces one platform.
  static let platformVariable = "LAYERKIT_EGL_PLATFORM"

  private init(
    display: EGLDisplay, platform: EGLPlatformKind, deviceName: String?, major: Int32,
    minor: Int32, gbmDevice: OpaquePointer? = nil, gbmFD: Int32 = -1
  ) {
    self.display = display
    self.platform = platform
    self.deviceName = deviceName
    self.majorVersion = major
    self.minorVersion = minor
    self.gbmDevice = gbmDevice
    self.gbmFD = gbmFD
  }

  deinit {
    let key = UInt(bitPattern: display)
    displayUseCounts.withLock { counts in
      let left = (counts[key] ?? 1) - 1
      if left <= 0 {
        counts[key] = nil
        eglTerminate(display)
      } else {
        counts[key] = left
      }
    }
    if let gbmDevice { gbm_device_destroy(gbmDevice) }
    if gbmFD >= 0 { close(gbmFD) }
  }

  /// Opens a display on the first platform that works, or the one `LAYERKIT_EGL_PLATFORM` names.
  /// - Throws: `GLError.noDisplay` with one line naming each platform tried, why it failed, and
  ///   the fix.
  static func open(environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(GLError) -> EGLDisplayConnection
  {
    var order = EGLPlatformKind.allCases
    if let forced = environment[platformVariable], !forced.isEmpty {
      guard let kind = EGLPlatformKind(rawValue: forced.lowercased()) else {
        throw .noDisplay(
          "no EGL display: \(platformVariable)=\(forced) is not a platform; use surfaceless, device or gbm")
      }
      order = [kind]
    }
    let clientExtensions = eglString(nil, EGL_EXTENSIONS)
    var failures: [String] = []
    for kind in order {
      do {
        switch kind {
        case .surfaceless: return try openSurfaceless(clientExtensions)
        case .device: return try openDevice(clientExtensions)
        case .gbm: return try openGBM(clientExtensions)
        }
      } catch {
        failures.append("\(kind.rawValue): \(error.reason)")
      }
    }
    throw .noDisplayTried(failures.joined(separator: "; "))
  }

  /// Why one platform failed, as a clause of the one-line message.
  struct PlatformFailure: Error {
    var reason: String
  }

  private static func openSurfaceless(_ clientExtensions: Set<String>?) throws(PlatformFailure)
    -> EGLDisplayConnection
  {
    try requireClientExtension("EGL_MESA_platform_surfaceless", clientExtensions)
    let display = try platformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, clientExtensions)
    let (major, minor) = try initialize(display)
    return EGLDisplayConnection(
      display: display, platform: .surfaceless, deviceName: displayDeviceName(display, clientExtensions),
      major: major, minor: minor)
  }

  private static func openDevice(_ clientExtensions: Set<String>?) throws(PlatformFailure)
    -> EGLDisplayConnection
  {
    try requireClientExtension("EGL_EXT_platform_device", clientExtensions)
    guard
      let queryDevices = eglProc("eglQueryDevicesEXT", as: PFNEGLQUERYDEVICESEXTPROC.self)
    else { throw PlatformFailure(reason: "eglQueryDevicesEXT is missing") }
    var count: EGLint = 0
    guard queryDevices(0, nil, &count) == EGLBoolean(EGL_TRUE) else {
      throw PlatformFailure(reason: "eglQueryDevicesEXT failed (\(eglErrorName()))")
    }
    guard count > 0 else { throw PlatformFailure(reason: "no EGL devices") }
    var devices = [EGLDeviceEXT?](repeating: nil, count: Int(count))
    guard queryDevices(count, &devices, &count) == EGLBoolean(EGL_TRUE) else {
      throw PlatformFailure(reason: "eglQueryDevicesEXT failed (\(eglErrorName()))")
    }
    var reasons: [String] = []
    for (index, device) in devices.prefix(Int(count)).enumerated() {
      guard let device else { continue }
      do {
        let display = try platformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, clientExtensions)
        let (major, minor) = try initialize(display)
        return EGLDisplayConnection(
          display: display, platform: .device, deviceName: deviceName(device), major: major,
          minor: minor)
      } catch {
        reasons.append("device \(index): \(error.reason)")
      }
    }
    throw PlatformFailure(reason: reasons.joined(separator: ", "))
  }

  private static func openGBM(_ clientExtensions: Set<String>?) throws(PlatformFailure)
    -> EGLDisplayConnection
  {
    let hasGBM =
      clientExtensions?.contains("EGL_KHR_platform_gbm") == true
      || clientExtensions?.contains("EGL_MESA_platform_gbm") == true
    guard hasGBM else {
      throw PlatformFailure(reason: "EGL_KHR_platform_gbm not offered by libEGL")
    }
    let nodes =
      ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? [])
      .filter { $0.hasPrefix("renderD") }.sorted().map { "/dev/dri/" + $0 }
    guard !nodes.isEmpty else { throw PlatformFailure(reason: "no /dev/dri render node") }
    var reasons: [String] = []
    for node in nodes {
      let fd = Glibc.open(node, O_RDWR | O_CLOEXEC)
      guard fd >= 0 else {
        reasons.append("\(node): \(String(cString: strerror(errno)))")
        continue
      }
      guard let device = gbm_create_device(fd) else {
        close(fd)
        reasons.append("\(node): gbm_create_device failed")
        continue
      }
      do {
        let display = try platformDisplay(
          EGLenum(EGL_PLATFORM_GBM_KHR), UnsafeMutableRawPointer(device), clientExtensions)
        let (major, minor) = try initialize(display)
        return EGLDisplayConnection(
          display: display, platform: .gbm, deviceName: node, major: major, minor: minor,
          gbmDevice: device, gbmFD: fd)
      } catch {
        gbm_device_destroy(device)
        close(fd)
        reasons.append("\(node): \(error.reason)")
      }
    }
    throw PlatformFailure(reason: reasons.joined(separator: ", "))
  }

  // MARK: - EGL helpers

  private static func requireClientExtension(_ name: String, _ clientExtensions: Set<String>?)
    throws(PlatformFailure)
  {
    guard let clientExtensions else {
      throw PlatformFailure(reason: "libEGL offers no client extensions (no EGL vendor library?)")
    }
    guard clientExtensions.contains(name) else {
      throw PlatformFailure(reason: "\(name) not offered by libEGL")
    }
  }

  /// eglGetPlatformDisplay (EGL 1.5), else eglGetPlatformDisplayEXT.
  private static func platformDisplay(
    _ platform: EGLenum, _ native: UnsafeMutableRawPointer?, _ clientExtensions: Set<String>?
  ) throws(PlatformFailure) -> EGLDisplay {
    if let display = eglGetPlatformDisplay(platform, native, nil) { return display }
    if clientExtensions?.contains("EGL_EXT_platform_base") == true,
      let getDisplayEXT = eglProc(
        "eglGetPlatformDisplayEXT", as: PFNEGLGETPLATFORMDISPLAYEXTPROC.self),
      let display = getDisplayEXT(platform, native, nil)
    {
      return display
    }
    throw PlatformFailure(reason: "eglGetPlatformDisplay failed (\(eglErrorName()))")
  }

  /// Initializes `display` and counts this use of it.
  private static func initialize(_ display: EGLDisplay) throws(PlatformFailure) -> (Int32, Int32) {
    let result: Result<(Int32, Int32), PlatformFailure> = displayUseCounts.withLock { counts in
      var major: EGLint = 0
      var minor: EGLint = 0
      guard eglInitialize(display, &major, &minor) == EGLBoolean(EGL_TRUE) else {
        return .failure(PlatformFailure(reason: "eglInitialize failed (\(eglErrorName()))"))
      }
      counts[UInt(bitPattern: display), default: 0] += 1
      return .success((major, minor))
    }
    return try result.get()
  }

  private static func deviceName(_ device: EGLDeviceEXT) -> String? {
    guard
      let queryString = eglProc(
        "eglQueryDeviceStringEXT", as: PFNEGLQUERYDEVICESTRINGEXTPROC.self)
    else { return nil }
    func string(_ name: Int32) -> String? {
      queryString(device, EGLint(name)).map { String(cString: $0) }
    }
    let extensions = Set((string(EGL_EXTENSIONS) ?? "").split(separator: " ").map(String.init))
    if extensions.contains("EGL_EXT_device_drm_render_node"),
      let node = string(EGL_DRM_RENDER_NODE_FILE_EXT)
    {
      return node
    }
    if extensions.contains("EGL_EXT_device_drm"), let file = string(EGL_DRM_DEVICE_FILE_EXT) {
      return file
    }
    if extensions.contains("EGL_MESA_device_software") { return "software" }
    return nil
  }

  /// The device behind a display made on another platform (EGL_EXT_device_query), if any.
  private static func displayDeviceName(_ display: EGLDisplay, _ clientExtensions: Set<String>?)
    -> String?
  {
    guard
      clientExtensions?.contains("EGL_EXT_device_query") == true
        || clientExtensions?.contains("EGL_EXT_device_base") == true,
      let queryAttrib = eglProc(
        "eglQueryDisplayAttribEXT", as: PFNEGLQUERYDISPLAYATTRIBEXTPROC.self)
    else { return nil }
    var value: EGLAttrib = 0
    guard queryAttrib(display, EGLint(EGL_DEVICE_EXT), &value) == EGLBoolean(EGL_TRUE), value != 0,
      let device = EGLDeviceEXT(bitPattern: value)
    else { return nil }
    return deviceName(device)
  }
}

/// The space-separated extension list (or other string) of `display`; nil when EGL gives none.
func eglString(_ display: EGLDisplay?, _ name: Int32) -> Set<String>? {
  guard let cString = eglQueryString(display, EGLint(name)) else {
    _ = eglGetError()  // EGL_BAD_DISPLAY when client extensions are unsupported; not an error here
    return nil
  }
  return Set(String(cString: cString).split(separator: " ").map(String.init))
}

/// A raw EGL string (vendor, version).
func eglText(_ display: EGLDisplay?, _ name: Int32) -> String {
  eglQueryString(display, EGLint(name)).map { String(cString: $0) } ?? "unknown"
}

/// An extension function, or nil when the driver lacks it.
func eglProc<T>(_ name: String, as type: T.Type) -> T? {
  guard let pointer = eglGetProcAddress(name) else { return nil }
  return unsafeBitCast(pointer, to: type)
}

/// The last EGL error, by name.
func eglErrorName(_ code: EGLint = eglGetError()) -> String {
  let names: [Int32: String] = [
    EGL_SUCCESS: "EGL_SUCCESS", EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED",
    EGL_BAD_ACCESS: "EGL_BAD_ACCESS", EGL_BAD_ALLOC: "EGL_BAD_ALLOC",
    EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE", EGL_BAD_CONFIG: "EGL_BAD_CONFIG",
    EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT", EGL_BAD_CURRENT_SURFACE: "EGL_BAD_CURRENT_SURFACE",
    EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY", EGL_BAD_MATCH: "EGL_BAD_MATCH",
    EGL_BAD_NATIVE_PIXMAP: "EGL_BAD_NATIVE_PIXMAP", EGL_BAD_NATIVE_WINDOW: "EGL_BAD_NATIVE_WINDOW",
    EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER", EGL_BAD_SURFACE: "EGL_BAD_SURFACE",
    EGL_CONTEXT_LOST: "EGL_CONTEXT_LOST",
  ]
  return names[code] ?? "EGL error 0x\(String(code, radix: 16))"
}
