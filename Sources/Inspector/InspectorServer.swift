import FlyingFox
import FlyingSocks
import Foundation
import UIKit

/// The inspector's HTTP and WebSocket server (FlyingFox): `GET /` is the
/// page, `GET /socket` its WebSocket to the ``InspectorSession``. It runs on
/// Swift concurrency's threads; everything it hears goes to the session on
/// the main actor, which the application's run loop serves.
///
/// It listens on 127.0.0.1 unless told another address. A page from
/// another origin (a web site the browser has open) may not use it: the
/// `Host` of every request, and the `Origin` of the WebSocket, must name the
/// address it listens on.
public final class InspectorServer: Sendable {
    private let server: HTTPServer

    /// A server for `session` on `host:port` (port 0: any free one).
    public init(session: InspectorSession, host: String = "127.0.0.1", port: UInt16) throws {
        let address: any SocketAddress = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: port) : try sockaddr_in.inet(ip4: host, port: port)
        server = HTTPServer(address: address, timeout: 60, logger: .disabled)
        let page = InspectorPage.html
        let names: Set<String> = ["127.0.0.1", "localhost", "[::1]", host.contains(":") ? "[\(host)]" : host]
        Task { [server] in
            await server.appendRoute("GET /") { request in
                guard Self.isSameOrigin(request, names: names) else { return Self.forbidden() }
                return HTTPResponse(
                    statusCode: .ok, headers: [.contentType: "text/html; charset=utf-8", .init("Cache-Control"): "no-store"],
                    body: Data(page.utf8))
            }
            await server.appendRoute("GET /socket", to: OriginCheckedWebSocket(names: names, socket: .webSocket(InspectorSocket(session: session))))
        }
    }

    /// Serves until cancelled; throws if the address cannot be used.
    public func run() async throws {
        try await server.run()
    }

    /// Returns once the server listens, or throws after `timeout` seconds.
    public func waitUntilListening(timeout: TimeInterval = 10) async throws {
        try await server.waitUntilListening(timeout: timeout)
    }

    /// The port it listens on (the one chosen, when asked for 0).
    public func listeningPort() async -> UInt16? {
        guard let address = await server.listeningAddress else { return nil }
        switch address {
        case .ip4(_, let port), .ip6(_, let port): return port
        default: return nil
        }
    }

    /// Whether the request's `Host`, and its `Origin` if it has one, name
    /// one of `names` (the loopback names and the address served): a page
    /// of another site that points a name of its own at this machine is
    /// turned away.
    static func isSameOrigin(_ request: HTTPRequest, names: Set<String>) -> Bool {
        isSameOrigin(host: request.headers[.host], origin: request.headers[HTTPHeader("Origin")], names: names)
    }

    static func isSameOrigin(host: String?, origin: String?, names: Set<String>) -> Bool {
        guard let host, names.contains(name(ofHost: host)) else { return false }
        guard let origin else { return true }
        guard let originHost = URL(string: origin)?.host else { return false }
        return names.contains(originHost.contains(":") || originHost.hasPrefix("[") ? bracketed(originHost) : originHost)
    }

    private static func bracketed(_ host: String) -> String {
        host.hasPrefix("[") ? host : "[\(host)]"
    }

    /// A `Host` header's name, without its port.
    private static func name(ofHost host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return String(host.split(separator: ":").first ?? "")
    }

    static func forbidden() -> HTTPResponse {
        HTTPResponse(statusCode: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                     body: Data("The inspector answers pages it served itself only (Host or Origin is another site's).\n".utf8))
    }
}

/// The WebSocket route, turning away upgrades from other origins.
private struct OriginCheckedWebSocket: HTTPHandler {
    let names: Set<String>
    let socket: WebSocketHTTPHandler

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard InspectorServer.isSameOrigin(request, names: names) else { return InspectorServer.forbidden() }
        return try await socket.handleRequest(request)
    }
}

/// One page's WebSocket: its messages go to the session on the main actor,
/// and what the session sends goes back.
private struct InspectorSocket: WSMessageHandler {
    let session: InspectorSession

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (outgoing, continuation) = AsyncStream<WSMessage>.makeStream()
        let id = await session.connect { message in
            switch message {
            case .text(let text): continuation.yield(.text(text))
            case .frame(let png): continuation.yield(.data(png))
            case .close:
                continuation.yield(.close(.normalClosure))
                continuation.finish()
            }
        }
        Task {
            for await message in client {
                switch message {
                case .text(let text): await session.receive(text, from: id)
                case .data(let data): await session.receiveBinary(byteCount: data.count, from: id)
                case .close: break
                }
            }
            await session.disconnect(id)
            continuation.finish()
        }
        return outgoing
    }
}
