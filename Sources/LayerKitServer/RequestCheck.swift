import Foundation
import Hummingbird

/// What is checked of every request before its route: a server without clients (no tokens)
/// answers only requests addressed to a loopback name — a page on another site that makes the
/// browser call `http://127.0.0.1:8080` through a name it controls (DNS rebinding) sends its own
/// `Host` — and no server answers a browser's call from a page of another origin (`Origin`
/// names another host or port than `Host`). Both are 403 with the reason.
struct RequestCheck: RouterMiddleware {
  typealias Context = BasicRequestContext
  let configuration: ServerConfiguration

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let host = request.head.authority ?? ""
    if configuration.clients.isEmpty, !Self.isLoopback(authority: host) {
      throw APIError(
        .forbidden, "a server without tokens answers loopback names only (Host: localhost, 127.0.0.1 or [::1])")
    }
    if let origin = request.headers[.origin], !Self.sameOrigin(origin, host: host) {
      throw APIError(.forbidden, "calls from a page of another origin are refused (Origin: \(origin.prefix(100)))")
    }
    return try await next(request, context)
  }

  /// Whether `authority` (`HOST[:PORT]`) names loopback.
  static func isLoopback(authority: String) -> Bool {
    ServerConfiguration.isLoopback(split(authority).host)
  }

  /// The host (lowercased, without brackets) and the port of `HOST[:PORT]` or `[V6][:PORT]`.
  static func split(_ authority: String) -> (host: String, port: Int?) {
    let text = authority.lowercased()
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
      let host = String(text[text.index(after: text.startIndex)..<close])
      let rest = text[text.index(after: close)...]
      return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil)
    }
    let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    return (String(parts.first ?? ""), parts.count == 2 ? Int(parts[1]) : nil)
  }

  /// Whether the page at `origin` is this server's own: the host and port the request was
  /// addressed to.
  static func sameOrigin(_ origin: String, host: String) -> Bool {
    guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), url.host != nil,
      let authority = origin.components(separatedBy: "://").last
    else { return false }
    let page = split(authority)
    let asked = split(host)
    let standard = scheme == "https" ? 443 : 80
    return page.host == asked.host && (page.port ?? standard) == (asked.port ?? 80)
  }
}
