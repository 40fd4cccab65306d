import TestExpectations
import Testing
import HID
#if canImport(Glibc)
import Glibc
#endif

/// How a client's first exchange with the server ends.
@Suite struct GreetingTests {
    private let hello = ServerMessage.Hello(role: .control, processIdentifier: 1, name: "openuikit")

    @Test func aClientRefusedBeforeItsHelloIsToldWhyNotThatTheServerHungUp() throws {
        // The server refused the connection as it accepted it (another user,
        // too many clients): it said why and hung up before the hello came.
        let (client, server) = try MessageSocket.makePair()
        _ = try server.send(ServerMessage.error(ServerErrorMessage(.refusedPeer, "refused: the server accepts only processes of user 0, not of user 1000")).encoded())
        server.close()
        #expect(throws: GreetingError.refused("refused: the server accepts only processes of user 0, not of user 1000")) {
            _ = try client.greet(hello, timeout: 1)
        }
    }

    @Test func aWelcomeIsTheAnswerAndAnythingElseIsNamed() throws {
        let (client, server) = try MessageSocket.makePair()
        let welcome = ServerMessage.Welcome(clientIdentifier: 3, screenWidth: 390, screenHeight: 844, screenScale: 3, isForeground: false)
        _ = try server.send(ServerMessage.welcome(welcome).encoded())
        try expectEqual(client.greet(hello, timeout: 1), welcome)
        _ = try server.send(ServerMessage.shutdown.encoded())
        #expect(throws: GreetingError.unexpected("the server answered the hello with shutdown instead of a welcome")) {
            _ = try client.greet(hello, timeout: 1)
        }
    }

    @Test func aServerThatHangsUpWithoutAWordIsAHangUp() throws {
        let (client, server) = try MessageSocket.makePair()
        server.close()
        #expect(throws: GreetingError.socket(.peerClosed)) { _ = try client.greet(hello, timeout: 1) }
    }
}
