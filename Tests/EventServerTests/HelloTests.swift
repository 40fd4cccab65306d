#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import TestExpectations
import Testing

/// Who may connect, and how a connection starts.
@Suite struct HelloTests {
    @Test func theWelcomeCarriesTheScreenAndSaysTheNewApplicationIsInFront() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "Photos")
        expectEqual(app.welcome?.screenWidth, 390)
        expectEqual(app.welcome?.screenHeight, 844)
        expectEqual(app.welcome?.screenScale, 3)
        // The iPhone 12–14's portrait safe area, the default screen's.
        expectEqual(app.welcome?.screenSafeArea, ScreenInsets(top: 47, left: 0, bottom: 34, right: 0))
        expectEqual(app.welcome?.isForeground, true)
        expectEqual(harness.server.applications.map(\.name), ["Photos"])
    }

    /// A process started by the server's process (an embedding program's, a
    /// test's) must not inherit a client's socket: it would keep the
    /// connection open after the client or the server closed it.
    @Test func aClientsSocketIsClosedOnExec() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "Photos")
        defer { withExtendedLifetime(app) {} }
        let accepted = try #require(harness.server.dispatcher.clients.first).socket.fileDescriptor
        expectEqual(fcntl(accepted, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
    }

    @Test func theSocketIsInADirectoryOnlyItsUserOpens() throws {
        let harness = try ServerHarness()
        var info = stat()
        let directory = String(harness.path.dropLast("/server.sock".count))
        expectEqual(stat(directory, &info), 0)
        expectEqual(info.st_mode & 0o777, 0o700)
        expectEqual(stat(harness.path, &info), 0)
        expectEqual(info.st_mode & 0o077, 0)
    }

    @Test func aSecondServerOnTheSameSocketIsRefused() throws {
        let harness = try ServerHarness()
        #expect(throws: EventServerError.socket("another event server is already listening at \(harness.path)")) {
            _ = try EventServer(configuration: ServerConfiguration(socketPath: harness.path, log: { _ in }))
        }
    }

    @Test func anotherProtocolVersionGetsAClearErrorAndIsDropped() throws {
        let harness = try ServerHarness()
        let client = try TestClient(path: harness.path)
        try client.send(.hello(.init(version: 6, role: .application, processIdentifier: getpid(), name: "Future")))
        harness.turn()
        try expectEqual(client.receive(), [.error(ServerErrorMessage(.unsupportedVersion, "this server speaks protocol version 5, not 6"))])
        #expect(client.serverHungUp)
        #expect(harness.server.applications.isEmpty)
    }

    @Test func garbageInsteadOfAHelloGetsAClearErrorAndIsDropped() throws {
        let harness = try ServerHarness()
        let client = try TestClient(path: harness.path)
        _ = try client.socket.send(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        harness.turn()
        guard case .error(let error) = try #require(client.receive().first) else { Issue.record("no error"); return }
        expectEqual(error.code, .malformedMessage)
        #expect(error.message.contains("magic"))
        #expect(client.serverHungUp)
        #expect(harness.log.contains("malformed message"))
    }

    @Test func speakingBeforeHelloIsRefused() throws {
        let harness = try ServerHarness()
        let client = try TestClient(path: harness.path)
        try client.send(.controlRequest(.listApplications))
        harness.turn()
        guard case .error(let error) = try #require(client.receive().first) else { Issue.record("no error"); return }
        expectEqual(error.code, .unexpectedMessage)
    }

    @Test func aClientThatNeverSaysHelloIsDroppedAfterTheTimeout() throws {
        let harness = try ServerHarness(watchdogTimeout: 0.05)
        let log = harness.log
        let server = try EventServer(configuration: ServerConfiguration(
            socketPath: harness.path + "2", helloTimeout: 0.05, log: { log.append($0) }))
        let client = try TestClient(path: harness.path + "2")
        server.runOnce(timeout: 0)
        server.runOnce(timeout: 0.2)
        server.runOnce(timeout: 0)
        guard case .error(let error) = try #require(client.receive().first) else { Issue.record("no error"); return }
        expectEqual(error.message, "no hello within 50 ms")
        server.shutDown()
    }

    @Test func aPeerOfAnotherUserIsRefused() throws {
        // The check sees this process as it would see another user's: its uid is not the one accepted.
        let harness = try ServerHarness(acceptsPeer: { $0.userIdentifier == getuid() &+ 1 })
        let client = try TestClient(path: harness.path)
        try client.send(.hello(.init(role: .application, processIdentifier: getpid(), name: "Intruder")))
        harness.turn()
        guard case .error(let error) = try #require(client.receive().first) else { Issue.record("no error"); return }
        expectEqual(error.code, .refusedPeer)
        expectEqual(error.message, "refused: the server accepts only processes of user \(getuid()), not of user \(getuid())")
        #expect(harness.server.applications.isEmpty)
    }

    @Test func theDefaultPeerCheckAcceptsOnlyThisUser() {
        let me = PeerCredentials(processIdentifier: 1, userIdentifier: getuid(), groupIdentifier: getgid())
        var other = me
        other.userIdentifier = getuid() &+ 1
        #expect(ServerConfiguration.sameUser(me))
        #expect(!ServerConfiguration.sameUser(other))
    }

    @Test func thePeerCredentialsAreTheKernels() throws {
        let (a, _) = try MessageSocket.makePair()
        let credentials = try a.peerCredentials()
        expectEqual(credentials.userIdentifier, getuid())
        expectEqual(credentials.processIdentifier, getpid())
    }

    @Test func theListOfEveryApplicationTheServerCanHoldFitsInOneReply() throws {
        // The worst case: every client an application with the longest name
        // (two-byte characters, cut to 255 bytes) and the largest numbers.
        let name = String(repeating: "é", count: 200)
        let rows = (0..<EventServer.maximumClients).map { index in
            ServerMessage.ApplicationStatus(
                clientIdentifier: .max - UInt32(index), processIdentifier: .max, name: name,
                isForeground: index == 0, isResponding: true, unacknowledgedCount: .max
            )
        }
        let reply = ServerMessage.controlReply(.applications(rows)).encoded()
        #expect(reply.count <= ServerProtocol.maximumMessageSize)
        guard case .controlReply(.applications(let read)) = try ServerMessage(decoding: reply) else {
            Issue.record("the reply did not read back as a list")
            return
        }
        expectEqual(read.count, EventServer.maximumClients)
        expectEqual(read.last?.name.utf8.count, 254)
    }

    @Test func screensAreReadFromTheirOptionForm() {
        expectEqual(Screen(parsing: "390x844@3"), Screen(width: 390, height: 844, scale: 3))
        expectEqual(Screen(parsing: "1024x768"), Screen(width: 1024, height: 768, scale: 1))
        #expect(Screen(parsing: "800x600@1.5")?.description == "800x600@1.5")
        for bad in ["", "390", "390x", "x844", "390x844@", "390x844@0", "-1x5@1", "nanx5@1", "inf x 5", "1x1@2@3"] {
            #expect(Screen(parsing: bad) == nil, "\(bad)")
        }
    }

    /// A screen of a known iPhone's size and scale has that iPhone's
    /// portrait safe area; any other has none unless it is given one.
    @Test func screensOfKnownIPhonesHaveTheirSafeAreas() {
        #expect(Screen(parsing: "390x844@3")?.safeArea == ScreenInsets(top: 47, left: 0, bottom: 34, right: 0))
        #expect(Screen(parsing: "375x812@3")?.safeArea == ScreenInsets(top: 44, left: 0, bottom: 34, right: 0))
        #expect(Screen(parsing: "414x896@2")?.safeArea == ScreenInsets(top: 44, left: 0, bottom: 34, right: 0))
        #expect(Screen(parsing: "375x667@2")?.safeArea == ScreenInsets(top: 20, left: 0, bottom: 0, right: 0))
        #expect(Screen(parsing: "430x932@3")?.safeArea == ScreenInsets(top: 59, left: 0, bottom: 34, right: 0))
        // The same points at another scale are not that iPhone.
        #expect(Screen(parsing: "390x844@1")?.safeArea == .zero)
        #expect(Screen(parsing: "40x20@2")?.safeArea == .zero)
        expectEqual(Screen(width: 390, height: 844, scale: 3, safeArea: .zero).safeArea, .zero)
        expectEqual(ScreenInsets(parsing: "47,0,34,0"), ScreenInsets(top: 47, left: 0, bottom: 34, right: 0))
        expectEqual(ScreenInsets(parsing: " 20, 1.5 ,0,0 "), ScreenInsets(top: 20, left: 1.5, bottom: 0, right: 0))
        for bad in ["", "47", "47,0,34", "47,0,34,0,0", "a,0,0,0", "47;0;34;0"] {
            #expect(ScreenInsets(parsing: bad) == nil, "\(bad)")
        }
        #expect(ScreenInsets(top: 47, left: 0, bottom: 34, right: 0).fits(width: 390, height: 844))
        #expect(!ScreenInsets(top: 500, left: 0, bottom: 344, right: 0).fits(width: 390, height: 844))
        #expect(!ScreenInsets(top: -1, left: 0, bottom: 0, right: 0).fits(width: 390, height: 844))
        #expect(!ScreenInsets(top: .infinity, left: 0, bottom: 0, right: 0).fits(width: 390, height: 844))
    }
}
