import Foundation
import Hummingbird

/// An error the API answers with: its status and `{"error": "…", "path": "…"}`, the message in
/// the command line's words and the path the JSON path of the field at fault.
public struct APIError: Error, HTTPResponseError, Sendable, Equatable {
  public var status: HTTPResponse.Status
  public var message: String
  public var path: String?

  public init(_ status: HTTPResponse.Status, _ message: String, path: String? = nil) {
    self.status = status
    self.message = message
    self.path = path
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    var body: [String: String] = ["error": message]
    if let path { body["path"] = path }
    var response = try JSON.response(body, status: status)
    if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
    return response
  }
}

/// JSON bodies, written with sorted keys.
enum JSON {
  static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws
    -> Response
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return data(try encoder.encode(value), status: status, headers: headers)
  }

  static func data(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
    var headers = headers
    headers[.contentType] = "application/json"
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }
}
