import Crypto
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A render's end told to the URL its client gave: POSTed once it is received (a 2xx answer),
/// tried again after 1, 2, 4 and 8 seconds otherwise, and never sent anywhere but the host and
/// port `--callback-host` allows — a redirect is not followed. The body is signed so that the
/// receiver knows it is this server's: `LayerKit-Signature: t=SECONDS,v1=HEX`, where HEX is the
/// HMAC-SHA256 under the callback secret of the text `SECONDS.BODY` (the time the body was sent,
/// then a dot, then the body's bytes).
enum Callbacks {
  /// Tries after the first: five in all.
  static let retries = [1.0, 2.0, 4.0, 8.0]

  /// Whether `url` is an http(s) URL to one of `targets` (`host:port`, matched exactly; a URL
  /// without a port has its scheme's).
  static func allows(_ url: URL, targets: [String]) -> Bool {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host,
      url.user == nil, url.password == nil
    else { return false }
    let port = url.port ?? (scheme == "https" ? 443 : 80)
    var bare = host.lowercased()
    if bare.hasPrefix("["), bare.hasSuffix("]") { bare = String(bare.dropFirst().dropLast()) }
    return targets.contains { target in
      guard let allowed = ServerConfiguration.hostAndPort(target) else { return false }
      return allowed.host == bare && allowed.port == port
    }
  }

  /// The signature header's value for `body` sent at `time`.
  static func signature(_ body: Data, time: Int, secret: String) -> String {
    var signed = Data("\(time).".utf8)
    signed.append(body)
    let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8)))
    return "t=\(time),v1=" + mac.map { String(format: "%02x", $0) }.joined()
  }

  /// Sends `body` to `url` until it is received or the tries run out.
  /// - Returns: whether a 2xx answer came.
  static func deliver(_ body: Data, to url: URL, secret: String, now: () -> Date = Date.init) async -> Bool {
    let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    for wait in [0.0] + retries {
      if wait > 0 { try? await Task.sleep(for: .seconds(wait)) }
      if Task.isCancelled { return false }
      var request = URLRequest(url: url, timeoutInterval: 10)
      request.httpMethod = "POST"
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.setValue(
        signature(body, time: Int(now().timeIntervalSince1970), secret: secret),
        forHTTPHeaderField: "LayerKit-Signature")
      request.httpBody = body
      if let status = await post(request, session: session), (200..<300).contains(status) { return true }
    }
    return false
  }

  /// One POST's status, nil when none came.
  private static func post(_ request: URLRequest, session: URLSession) async -> Int? {
    await withCheckedContinuation { (done: CheckedContinuation<Int?, Never>) in
      session.dataTask(with: request) { _, response, _ in
        done.resume(returning: (response as? HTTPURLResponse)?.statusCode)
      }.resume()
    }
  }

  /// Answers a redirect with no request: the 3xx is the answer (and counts as not received).
  final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
      _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
      newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }
  }
}
