/// Why a client's hello did not get it a welcome.
public enum GreetingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server said why it would not take this client.
    case refused(String)
    /// The server answered with something other than a welcome or an error.
    case unexpected(String)
    case socket(MessageSocketError)

    public var description: String {
        switch self {
        case .refused(let reason): reason
        case .unexpected(let what): what
        case .socket(let error): "\(error)"
        }
    }
}

extension MessageSocket {
    /// Says `hello` and waits up to `timeout` seconds for the welcome: how
    /// every client (an application, a tool) starts a connection.
    ///
    /// A server may refuse a client as it accepts it (another user, too
    /// many clients), before the hello: it sends why and hangs up, and the
    /// hello then finds the connection closed. What it said is the error
    /// thrown, not the hang-up.
    public func greet(_ hello: ServerMessage.Hello, timeout: Double = 5) throws(GreetingError) -> ServerMessage.Welcome {
        let answer: Result<ServerMessage, ServerProtocolError>
        do {
            try sendWaiting(ServerMessage.hello(hello).encoded(), timeout: timeout)
            answer = try receiveMessage(timeout: timeout)
        } catch .peerClosed {
            if let refusal = waitingRefusal() { throw .refused(refusal) }
            throw .socket(.peerClosed)
        } catch {
            throw .socket(error)
        }
        switch answer {
        case .success(.welcome(let welcome)): return welcome
        case .success(.error(let error)): throw .refused(error.message)
        case .success(let other): throw .unexpected("the server answered the hello with \(other) instead of a welcome")
        case .failure(let error): throw .unexpected("the server's answer could not be read: \(error)")
        }
    }

    /// The reason in an error message the server left before hanging up, if any.
    private func waitingRefusal() -> String? {
        guard case .success(.error(let error))? = try? receiveMessage() else { return nil }
        return error.message
    }
}
