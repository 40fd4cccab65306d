#if canImport(Glibc)
import Glibc
#endif
import HID

/// A connection to a running event server for the `openuikit` tool's
/// commands: `apps` and `switch` (control requests), `record` (a copy of
/// every input event) and `replay` (events played in as input).
public final class ServerClient {
    public let socket: MessageSocket
    public let welcome: ServerMessage.Welcome
    /// How long a request waits for the server's answer.
    public static let replyTimeout = 5.0

    /// Connects to the server at `path` and says hello in `role`, once the
    /// server is known to be this user's (`trust`).
    public init(
        path: String = ServerProtocol.defaultSocketPath(), role: ServerMessage.Hello.Role, name: String = "openuikit",
        trust: ServerTrust = .fromEnvironment()
    ) throws(ServerClientError) {
        do {
            socket = try MessageSocket.connectToServer(at: path, trust: trust)
            welcome = try socket.greet(.init(role: role, processIdentifier: getpid(), name: name), timeout: Self.replyTimeout)
        } catch let error as GreetingError {
            switch error {
            case .refused(let reason): throw .refused(reason)
            case .unexpected(let what): throw .unexpected(what)
            case .socket(let error): throw .socket(error)
            }
        } catch let error as MessageSocketError {
            if case .connect(_, let code) = error, code == ENOENT || code == ECONNREFUSED {
                throw .noServer(path)
            }
            throw .socket(error)
        } catch {
            throw .unexpected("\(error)")
        }
    }

    /// Sends a control request and waits for its reply.
    public func request(_ request: ServerMessage.ControlRequest) throws(ServerClientError) -> ServerMessage.ControlReply {
        do {
            try socket.sendWaiting(ServerMessage.controlRequest(request).encoded())
            switch try socket.receiveMessage(timeout: Self.replyTimeout) {
            case .success(.controlReply(let reply)): return reply
            case .success(.error(let error)): throw ServerClientError.refused(error.message)
            case .success(let other): throw ServerClientError.unexpected("the server answered with \(other)")
            case .failure(let error): throw ServerClientError.unexpected("the server's answer could not be read: \(error)")
            }
        } catch let error as ServerClientError {
            throw error
        } catch let error as MessageSocketError {
            throw .socket(error)
        } catch {
            throw .unexpected("\(error)")
        }
    }

    /// Plays one event into the server as input (an injector's call). The
    /// server stamps it with the time it reads it; the caller keeps the pace.
    public func inject(_ event: HIDEvent) throws(ServerClientError) {
        do {
            try socket.sendWaiting(ServerMessage.encodeEvent(sequence: 0, readTime: 0, sendTime: 0, packet: HIDPacketEncoder().encode(event)))
        } catch {
            throw .socket(error)
        }
    }

    /// What a recorder receives: an input event, or the server stopping.
    public enum Received: Equatable, Sendable {
        case event(HIDEvent)
        case serverStopped
    }

    /// Waits up to `timeout` seconds for the next event the server read (a
    /// recorder's call); nil when none came.
    public func receive(timeout: Double) throws(ServerClientError) -> Received? {
        do {
            guard socket.waitUntilReadable(timeout: timeout) else { return nil }
            guard let message = try socket.receiveMessage() else { return nil }
            switch message {
            case .success(.event(let envelope)):
                var decoder = HIDPacketDecoder()
                decoder.append(envelope.packet)
                switch decoder.next() {
                case .success(let event)?: return .event(event)
                case .failure(let error)?: throw ServerClientError.unexpected("the server sent a bad event: \(error)")
                case nil: throw ServerClientError.unexpected("the server sent a cut-off event")
                }
            case .success(.shutdown): return .serverStopped
            case .success(.error(let error)): throw ServerClientError.refused(error.message)
            case .success(let other): throw ServerClientError.unexpected("the server sent \(other)")
            case .failure(let error): throw ServerClientError.unexpected("the server sent a malformed message: \(error)")
            }
        } catch let error as ServerClientError {
            throw error
        } catch let error as MessageSocketError {
            if error == .peerClosed { return .serverStopped }
            throw .socket(error)
        } catch {
            throw .unexpected("\(error)")
        }
    }
}

public enum ServerClientError: Error, Equatable, Sendable, CustomStringConvertible {
    case noServer(String)
    case socket(MessageSocketError)
    case refused(String)
    case unexpected(String)

    public var description: String {
        switch self {
        case .noServer(let path): "no event server is listening at \(path); start one with `openuikit-server`, or name its socket with --socket"
        case .socket(let error): "\(error)"
        case .refused(let message): "the event server refused: \(message)"
        case .unexpected(let message): message
        }
    }
}
