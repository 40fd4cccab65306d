#if canImport(Glibc)
import Glibc
#endif
@testable import EventServer
import HID
import TestExpectations
import Testing

/// The server's side of `openuikit inspect --attach`: attaching, passing
/// reports and requests between an inspector and its application, the
/// same-user rule, and what happens to bad messages and clients that leave.
@Suite struct InspectorRelayTests {
    /// An application "Photos" and an inspector attached to it.
    private func attached(_ harness: ServerHarness) throws -> (app: TestClient, inspector: TestClient) {
        let app = try harness.connect(name: "Photos")
        let inspector = try harness.connect(.inspector, name: "openuikit inspect")
        try inspector.send(.inspectRequest(.attach("Photos")))
        harness.turn()
        try expectEqual(app.receive(), [.inspectorCommand(.start)])
        #expect(try inspector.receive() == [.inspectorStatus(.attached(
            clientIdentifier: try #require(app.welcome).clientIdentifier, processIdentifier: getpid(), name: "Photos"))])
        return (app, inspector)
    }

    @Test func reportsAndRequestsPassBetweenTheInspectorAndItsApplication() throws {
        let harness = try ServerHarness()
        let (app, inspector) = try attached(harness)
        let parts: [ServerMessage] = [
            .inspectorReport(.init(isLastPart: false, bytes: Array("{\"type\":".utf8))),
            .inspectorReport(.init(isLastPart: true, bytes: Array("\"tree\"}".utf8))),
        ]
        for part in parts { try app.send(part) }
        harness.turn()
        try expectEqual(inspector.receive(), parts)

        try inspector.send(.inspectRequest(.tree))
        harness.turn()
        try expectEqual(app.receive(), [.inspectorCommand(.tree)])

        // The inspector's touches are input, which goes to the application in front.
        let frame = HIDEvent.digitizer(DigitizerFrame(timestamp: monotonicSeconds(), contacts: [DigitizerContact(identifier: 1, phase: .began, x: 10, y: 20)]))
        try inspector.send(.event(.init(sequence: 1, readTime: 0, sendTime: 0, packet: HIDPacketEncoder().encode(frame))))
        harness.turn()
        try expectEqual(app.touchPhases(), ["1 began"])

        // The inspector goes: the application stops reporting, and the
        // inspector's finger, still down, is cancelled like any source's.
        inspector.socket.close()
        harness.turn()
        let afterInspector = try app.receive()
        #expect(afterInspector.contains(.inspectorCommand(.stop)))
        expectEqual(harness.server.applications.map(\.name), ["Photos"])
    }

    @Test func withoutANameTheInspectorAttachesToTheApplicationInFront() throws {
        let harness = try ServerHarness()
        let back = try harness.connect(name: "Mail")
        let front = try harness.connect(name: "Maps")
        let inspector = try harness.connect(.inspector, name: "openuikit inspect")
        try inspector.send(.inspectRequest(.attach("")))
        harness.turn()
        #expect(try front.receive().contains(.inspectorCommand(.start)))
        #expect(!(try back.receive().contains(.inspectorCommand(.start))))
        guard case .inspectorStatus(.attached(_, _, let name)) = try #require(inspector.receive().first) else {
            Issue.record("not attached")
            return
        }
        expectEqual(name, "Maps")
    }

    @Test func anUnknownApplicationIsNamedAndTheInspectorStays() throws {
        let harness = try ServerHarness()
        let app = try harness.connect(name: "Photos")
        defer { withExtendedLifetime(app) {} }
        let inspector = try harness.connect(.inspector, name: "openuikit inspect")
        try inspector.send(.inspectRequest(.attach("Notes")))
        harness.turn()
        let received = try inspector.receive()
        expectEqual(received, [.inspectorStatus(.detached("no application called \"Notes\"; connected: Photos"))])
        #expect(!inspector.serverHungUp)
    }

    /// Only a process of the application's own user may inspect it. The
    /// kernel's credentials of another user cannot be had without root,
    /// so the test replaces the check with one that sees this process as
    /// another user, as `HelloTests` does for the server's own check.
    @Test func anInspectorOfAnotherUserIsRefusedAndTheApplicationStays() throws {
        let harness = try ServerHarness(mayInspect: { inspector, _ in inspector.userIdentifier == getuid() &+ 1 })
        let app = try harness.connect(name: "Photos")
        let inspector = try harness.connect(.inspector, name: "openuikit inspect")
        try inspector.send(.inspectRequest(.attach("Photos")))
        harness.turn()
        guard case .error(let error) = try #require(inspector.receive().first) else { Issue.record("no error"); return }
        expectEqual(error.code, .refusedPeer)
        #expect(error.message.hasSuffix("refused: \"Photos\" runs as user \(getuid()); only a process of that user may inspect it, not one of user \(getuid()); disconnected"))
        #expect(inspector.serverHungUp)
        #expect(try app.receive().isEmpty, "the application hears nothing of it")
        expectEqual(harness.server.applications.map(\.name), ["Photos"])
    }

    @Test func theDefaultInspectionCheckComparesTheUsers() {
        let me = PeerCredentials(processIdentifier: 10, userIdentifier: 1000, groupIdentifier: 1000)
        var sameUser = me
        sameUser.processIdentifier = 11
        var other = me
        other.userIdentifier = 1001
        #expect(ServerConfiguration.sameUserInspects(sameUser, me))
        #expect(!ServerConfiguration.sameUserInspects(other, me))
        #expect(!ServerConfiguration.sameUserInspects(me, other))
    }

    /// A report that does not read is skipped with the rest of its text;
    /// the inspector is told, and the application and its next texts stay.
    @Test func aMalformedReportIsSkippedWithItsTextAndTheApplicationStays() throws {
        let harness = try ServerHarness()
        let (app, inspector) = try attached(harness)
        let first = ServerMessage.inspectorReport(.init(isLastPart: false, bytes: Array("{\"type\":\"tr".utf8)))
        try app.send(first)
        var broken = ServerMessage.inspectorReport(.init(isLastPart: false, bytes: Array("ee\",".utf8))).encoded()
        broken[8] = 7  // no such flag
        try app.socket.sendWaiting(broken)
        try app.send(.inspectorReport(.init(isLastPart: true, bytes: Array("\"views\":[]}".utf8))))
        let next = ServerMessage.inspectorReport(.init(isLastPart: true, bytes: Array("{\"type\":\"trace\"}".utf8)))
        try app.send(next)
        harness.turn()
        let received = try inspector.receive()
        expectEqual(received.count, 3)
        expectEqual(received.first, first)
        guard case .inspectorStatus(.skipped(let why)) = received.dropFirst().first else { Issue.record("no skipped status: \(received)"); return }
        #expect(why.contains("inspector report last-part flag 7"))
        expectEqual(received.last, next)
        expectEqual(harness.server.applications.map(\.name), ["Photos"])
        #expect(!app.serverHungUp)
    }

    /// An inspector that sends what does not read is hung up on, with the
    /// reason; its application stops reporting and stays.
    @Test func aMalformedRequestDropsTheInspectorAlone() throws {
        let harness = try ServerHarness()
        let (app, inspector) = try attached(harness)
        try inspector.socket.sendWaiting(ServerProtocol.magic + [0x07, 0, 0, 0, 9])
        harness.turn()
        guard case .error(let error) = try #require(inspector.receive().first) else { Issue.record("no error"); return }
        expectEqual(error.code, .malformedMessage)
        #expect(error.message.contains("inspect request kind 9"))
        try expectEqual(app.receive(), [.inspectorCommand(.stop)])
        expectEqual(harness.server.applications.map(\.name), ["Photos"])
    }

    @Test func aNewerInspectorTakesOverAndTheOlderIsTold() throws {
        let harness = try ServerHarness()
        let (app, older) = try attached(harness)
        let newer = try harness.connect(.inspector, name: "openuikit inspect")
        try newer.send(.inspectRequest(.attach("Photos")))
        harness.turn()
        try expectEqual(older.receive(), [.inspectorStatus(.detached("another inspector attached to \"Photos\""))])
        guard case .inspectorStatus(.attached) = try #require(newer.receive().first) else { Issue.record("not attached"); return }
        #expect(try app.receive().isEmpty, "it goes on reporting, now to the newer")
        try app.send(.inspectorReport(.init(isLastPart: true, bytes: Array("{}".utf8))))
        harness.turn()
        try expectEqual(newer.receive().count, 1)
        #expect(try older.receive().isEmpty)
    }

    @Test func theInspectorIsToldWhenItsApplicationLeaves() throws {
        let harness = try ServerHarness()
        let (app, inspector) = try attached(harness)
        app.socket.close()
        harness.turn()
        try expectEqual(inspector.receive(), [.inspectorStatus(.detached("\"Photos\" left the server"))])
        try inspector.send(.inspectRequest(.tree))
        harness.turn()
        try expectEqual(inspector.receive(), [.inspectorStatus(.detached("asked for a tree while attached to no application"))])
    }
}
