import Foundation
import LayerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program run with pipes for standard input and output and its standard error kept (the last
/// few kilobytes, for error messages), the way ffmpeg-python drives ffmpeg.
///
/// Every pipe end is close-on-exec, so a second child never inherits the first one's stdin (an
/// encoder whose input a decoder holds open would never see end-of-file). The child runs in its own
/// process group with default signal handlers: a Ctrl-C at the terminal reaches LayerKit alone,
/// which then stops its children itself, in order. Not thread-safe except where stated.
package final class ChildProcess: @unchecked Sendable {
  package let executable: String
  package let arguments: [String]
  package let pid: pid_t
  /// Write end of the child's standard input, or -1 (closed, or not asked for).
  private(set) var input: Int32
  /// Read end of the child's standard output, or -1.
  private(set) var output: Int32
  private let stderrTail = StderrTail()
  /// The child's exit status once reaped.
  private let exitStatus = Locked<Int32?>(nil)

  /// How a child's standard output is set up.
  package enum Output {
    /// Read by us through `read(into:)`.
    case pipe
    /// Inherited from this process (an encoder writing to our standard output).
    case inherit
    /// /dev/null.
    case discard
  }

  /// Held while a child's pipes are made and it is spawned.
  private static let spawning = Locked(())

  /// Starts `executable` (looked up in PATH when it has no slash). Any thread may start one.
  /// - Throws: `ProcessError.programNotFound` when it cannot be started.
  package init(_ executable: String, _ arguments: [String], stdin wantInput: Bool, stdout: Output) throws(ProcessError)
  {
    self.executable = executable
    self.arguments = arguments
    // From the first pipe to the spawn, no other thread spawns: a child started between pipe()
    // and fcntl(FD_CLOEXEC) would inherit these ends and hold them open (a reader then never
    // sees end-of-file).
    let spawned = ChildProcess.spawning.withLock { _ in
      Result { () throws(ProcessError) in
        try ChildProcess.spawnLocked(executable, arguments, wantInput: wantInput, stdout: stdout)
      }
    }
    let child = try spawned.get()
    pid = child.pid
    input = child.input
    output = child.output
    let errFD = child.errors
    let tail = stderrTail
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(errFD, $0.baseAddress, $0.count) }
        if n > 0 {
          tail.append(buffer[0..<n])
        } else if n < 0 && errno == EINTR {
          continue
        } else {
          break
        }
      }
      close(errFD)
      tail.finish()
    }
    thread.name = "stderr of \(executable)"
    thread.start()
  }

  /// Makes the pipes and spawns the child; called under `spawning` only.
  private static func spawnLocked(
    _ executable: String, _ arguments: [String], wantInput: Bool, stdout: Output
  ) throws(ProcessError) -> (pid: pid_t, input: Int32, output: Int32, errors: Int32) {
    var inPipe: [Int32] = [-1, -1]
    var outPipe: [Int32] = [-1, -1]
    var errPipe: [Int32] = [-1, -1]
    func closeAll() { for fd in inPipe + outPipe + errPipe where fd >= 0 { close(fd) } }
    if wantInput, !makePipe(&inPipe) {
      throw .programFailed(program: executable, status: -1, detail: "pipe: \(String(cString: strerror(errno)))")
    }
    if stdout == .pipe, !makePipe(&outPipe) {
      closeAll()
      throw .programFailed(program: executable, status: -1, detail: "pipe: \(String(cString: strerror(errno)))")
    }
    if !makePipe(&errPipe) {
      closeAll()
      throw .programFailed(program: executable, status: -1, detail: "pipe: \(String(cString: strerror(errno)))")
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if wantInput {
      posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    switch stdout {
    case .pipe: posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    case .inherit: break
    case .discard: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)

    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for s in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, s) }
    posix_spawnattr_setsigdefault(&attr, &defaults)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attr, &empty)
    posix_spawnattr_setpgroup(&attr, 0)
    posix_spawnattr_setflags(
      &attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

    // A long filter graph (a mix of hundreds of tracks) would pass Linux's limit on one argument
    // (128 KiB): it goes to ffmpeg as a script instead, through a file that is unlinked at once
    // and read from a descriptor only this child inherits — nothing is left on disk.
    var passed = arguments
    var scripts: [Int32] = []
    defer { scripts.forEach { close($0) } }
    for i in passed.indices.dropLast() where passed[i] == "-filter_complex" && passed[i + 1].utf8.count > 16 << 10 {
      guard let fd = ChildProcess.unlinkedFile(holding: passed[i + 1]) else {
        closeAll()
        throw .programFailed(
          program: executable, status: -1, detail: "a file for its filter graph: \(String(cString: strerror(errno)))")
      }
      scripts.append(fd)
      // dup2 onto itself clears close-on-exec in the child alone (glibc 2.29 and later).
      posix_spawn_file_actions_adddup2(&actions, fd, fd)
      passed[i] = "-filter_complex_script"
      passed[i + 1] = "/dev/fd/\(fd)"
    }

    let argv = ([executable] + passed).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var cargv: [UnsafeMutablePointer<CChar>?] = argv + [nil]
    var child: pid_t = 0
    let rc = posix_spawnp(&child, executable, &actions, &attr, &cargv, environ)
    // The child's ends are the child's now.
    for fd in [inPipe[0], outPipe[1], errPipe[1]] where fd >= 0 { close(fd) }
    guard rc == 0 else {
      for fd in [inPipe[1], outPipe[0], errPipe[0]] where fd >= 0 { close(fd) }
      switch rc {
      case ENOENT, EACCES: throw .programNotFound(program: executable)
      case E2BIG:
        throw .programFailed(
          program: executable, status: -1,
          detail: "its command line is longer than Linux allows (E2BIG: \(arguments.count) arguments, "
            + "\(arguments.reduce(0) { $0 + $1.utf8.count + 1 }) bytes)")
      default:
        throw .programFailed(
          program: executable, status: -1, detail: "it could not be started: \(String(cString: strerror(rc)))")
      }
    }
    EmergencyStop.add(child: child)
    return (child, inPipe[1], outPipe[0], errPipe[0])
  }

  deinit {
    if input >= 0 { close(input) }
    if output >= 0 { close(output) }
    let reaped = exitStatus.current != nil
    if !reaped {
      // Never leave a zombie behind: a child nobody waited for is killed and reaped.
      kill(pid, SIGKILL)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      EmergencyStop.remove(child: pid)
    }
  }

  /// Writes all of `bytes` to the child's standard input.
  /// - Throws: `.programFailed` when the child has closed its input (it exited or failed), with
  ///   its status and the last lines of its error output.
  package func write(_ bytes: UnsafeRawBufferPointer) throws(ProcessError) {
    // EPIPE (SIGPIPE is ignored while a pipeline runs): the program stopped reading.
    if FileIO.writeFully(input, bytes) != 0 {
      closeInput()
      let status = wait()
      throw .programFailed(program: executable, status: status, detail: errorTail())
    }
  }

  /// Closes standard input: the child sees end-of-file.
  package func closeInput() {
    if input >= 0 {
      close(input)
      input = -1
    }
  }

  /// Reads exactly `count` bytes of standard output into `buffer`; false at end-of-file before
  /// the first byte. A partial read at end-of-file is an error (a frame cut short).
  package func readExactly(_ buffer: UnsafeMutableRawBufferPointer) throws(ProcessError) -> Bool {
    var done = 0
    while done < buffer.count {
      let n = read(output, buffer.baseAddress! + done, buffer.count - done)
      if n > 0 {
        done += n
      } else if n < 0 && errno == EINTR {
        continue
      } else if n == 0 && done == 0 {
        return false
      } else {
        throw .programFailed(
          program: executable, status: -1,
          detail: "its output ended in the middle of a frame (\(done) of \(buffer.count) bytes)")
      }
    }
    return true
  }

  /// All of standard output until end-of-file (for small outputs such as ffprobe's).
  package func readAll() -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if n > 0 {
        data.append(contentsOf: buffer[0..<n])
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        break
      }
    }
    return data
  }

  /// Waits for the child to exit; its exit status, or 128 + the signal that ended it. Safe to call
  /// more than once and from any thread.
  @discardableResult
  package func wait() -> Int32 {
    exitStatus.withLock { reaped in
      if let reaped { return reaped }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      EmergencyStop.remove(child: pid)
      // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
      let signal = status & 0x7f
      let result = signal == 0 ? (status >> 8) & 0xff : 128 + signal
      reaped = result
      return result
    }
  }

  /// Asks the child to stop (SIGTERM), then kills it (SIGKILL) if it has not exited within
  /// `grace` seconds. Safe from any thread: it only sends signals — it neither reaps the child
  /// (`wait()` alone does, so two threads never race for its status) nor touches the pipes (a
  /// writer blocked on standard input sees EPIPE once the child is gone).
  package func stop(grace: Double = 2) {
    if exitStatus.current != nil { return }
    kill(pid, SIGTERM)
    let deadline = Date().addingTimeInterval(grace)
    while Date() < deadline {
      if hasExited { return }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
  }

  /// Stops the child (see `stop`) and reaps it.
  @discardableResult
  package func terminate(grace: Double = 2) -> Int32 {
    stop(grace: grace)
    return wait()
  }

  /// Whether the child has exited (a zombie waiting to be reaped, or gone), without reaping it.
  private var hasExited: Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return true }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state == "Z" || state == "X"
  }

  /// The last lines of the child's standard error, after it has closed it.
  package func errorTail(lines: Int = 8) -> String {
    stderrTail.waitForEnd(timeout: 2)
    return stderrTail.lastLines(lines)
  }
}

extension ChildProcess {
  /// A close-on-exec descriptor of a temporary file holding `text`, already unlinked; nil (errno
  /// set) when none can be made.
  static func unlinkedFile(holding text: String) -> Int32? {
    let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    // Opened write-only: the child reads it through /dev/fd, which opens the file anew.
    let (fd, path) = FileIO.createTemporary(folder: folder + "/", base: "layerkit-graph")
    guard fd >= 0 else { return nil }
    unlink(path)
    let failure = Array(text.utf8).withUnsafeBytes { FileIO.writeFully(fd, $0) }
    guard failure == 0 else {
      close(fd)
      errno = failure
      return nil
    }
    return fd
  }
}

/// A pipe whose two ends are close-on-exec. (Glibc's pipe2 is not visible to Swift; children are
/// spawned under `ChildProcess.spawning`, so no spawn falls between pipe and fcntl.)
/// Each pipe holds up to 1 MiB where the system allows it (a raw 1080p frame is 3 MiB: 64 KiB pipes
/// cost a context switch every 64 KiB), or its default.
private func makePipe(_ fds: inout [Int32]) -> Bool {
  guard pipe(&fds) == 0 else { return false }
  for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
  #if os(Linux)
    _ = fcntl(fds[0], setPipeSize, 1 << 20)
  #endif
  return true
}

/// Linux's F_SETPIPE_SZ, which Glibc's module does not export.
private let setPipeSize: Int32 = 1031

/// The last 16 KiB a child wrote to standard error.
private final class StderrTail: @unchecked Sendable {
  private let state = Awaitable((bytes: [UInt8](), ended: false))
  private let limit = 16_384

  package func append(_ chunk: ArraySlice<UInt8>) {
    let limit = limit
    state.withLock { s in
      s.bytes.append(contentsOf: chunk)
      if s.bytes.count > limit { s.bytes.removeFirst(s.bytes.count - limit) }
    }
  }

  package func finish() { state.withLock { $0.ended = true } }

  package func waitForEnd(timeout: Double) {
    state.wait(until: { $0.ended }, deadline: Date().addingTimeInterval(timeout)) { _ in }
  }

  package func lastLines(_ n: Int) -> String {
    let text = String(decoding: state.withLock { $0.bytes }, as: UTF8.self)
    let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    return lines.suffix(n).joined(separator: "\n")
  }
}
