import HID

/// Passes inspector messages between inspectors (`openuikit inspect
/// --attach`) and the applications they inspect. The server stays a relay:
/// it knows nothing of views or traces, which the application describes in
/// JSON texts that go through unread.
///
/// - An inspector attaches to an application by name, or to the one in
///   front; only a process of the application's own user may
///   (``ServerConfiguration/mayInspect``, from both sockets' peer
///   credentials): any other is refused with an `error` and hung up on.
/// - One inspector per application: a newer one takes over, and the older
///   is told so (`detached`).
/// - The application gets `start` when an inspector attaches, `stop` when
///   it goes; its reports go to its inspector unchanged and in order. A
///   report that does not read is skipped with the rest of its text, and
///   the inspector is told; the application stays.
/// - Frames come from the display path: when the display shows a frame of
///   an application whose inspector asked for one, the server copies the
///   committed buffer into a sealed memfd of its own and sends it. One at a
///   time: the inspector asks for the next once it has shown this one.
/// - An inspector that falls ``maximumBacklog`` messages behind is dropped
///   (its queue would otherwise grow without bound); the application stays.
final class InspectorRelay {
    /// Messages queued for an inspector past which it is dropped: 1,024
    /// messages of at most 64 KB, at most 64 MB held for one slow reader.
    static let maximumBacklog = 1_024

    private struct Link {
        let inspector: Client
        let application: Client
        var wantsFrame = false
    }

    /// One per attached inspector.
    private var links: [Link] = []
    /// Applications whose report was skipped mid-text: their next parts,
    /// up to the text's last, are skipped too.
    private var skippingRestOfText: Set<UInt32> = []
    private let log: ServerLog
    private let mayInspect: @Sendable (PeerCredentials, PeerCredentials) -> Bool

    init(log: ServerLog, mayInspect: @escaping @Sendable (PeerCredentials, PeerCredentials) -> Bool) {
        self.log = log
        self.mayInspect = mayInspect
    }

    /// Whether any inspector is attached: the presenter copies frames only then.
    var isEmpty: Bool { links.isEmpty }

    enum Outcome {
        case done
        /// The inspector is refused and must be hung up on, with this error.
        case refuse(ServerErrorMessage)
    }

    /// An inspector's request. `applications` are the connected ones,
    /// `front` the one in front.
    func handle(_ request: ServerMessage.InspectRequest, from inspector: Client, applications: [Client], front: Client?) -> Outcome {
        switch request {
        case .attach(let name):
            let target: Client?
            if name.isEmpty {
                target = front
            } else {
                target = applications.last { $0.isApplication && $0.name == name }
            }
            guard let target else {
                let names = applications.filter(\.isApplication).map(\.name.escapedForDisplay)
                let why = name.isEmpty
                    ? "no application is in front"
                    : "no application called \"\(name.escapedForDisplay)\"; connected: \(names.isEmpty ? "none" : names.joined(separator: ", "))"
                inspector.enqueue(ServerMessage.inspectorStatus(.detached(why)).encoded())
                return .done
            }
            guard mayInspect(inspector.credentials, target.credentials) else {
                return .refuse(ServerErrorMessage(.refusedPeer, "refused: \"\(target.name.escapedForDisplay)\" runs as user \(target.credentials.userIdentifier); only a process of that user may inspect it, not one of user \(inspector.credentials.userIdentifier)"))
            }
            detach(inspector, tellApplication: true, tellInspector: nil)
            if let previous = links.first(where: { $0.application === target }) {
                detach(previous.inspector, tellApplication: false, tellInspector: "another inspector attached to \"\(target.name.escapedForDisplay)\"")
            } else {
                target.enqueue(ServerMessage.inspectorCommand(.start).encoded())
            }
            // The application draws itself whole when told to start; the
            // frame it then shows is the inspector's first, even when the
            // inspector's request for it comes later (an idle application
            // shows no other).
            links.append(Link(inspector: inspector, application: target, wantsFrame: true))
            inspector.enqueue(ServerMessage.inspectorStatus(.attached(
                clientIdentifier: target.identifier, processIdentifier: target.credentials.processIdentifier, name: target.name)).encoded())
            log("inspector \(inspector.identifier) (pid \(inspector.credentials.processIdentifier)) inspects \"\(target.name.escapedForDisplay)\" (client \(target.identifier))")
        case .tree:
            guard let link = links.first(where: { $0.inspector === inspector }) else { return notAttached(inspector, "a tree") }
            link.application.enqueue(ServerMessage.inspectorCommand(.tree).encoded())
        case .frame:
            guard let index = links.firstIndex(where: { $0.inspector === inspector }) else { return notAttached(inspector, "a frame") }
            links[index].wantsFrame = true
        }
        return .done
    }

    private func notAttached(_ inspector: Client, _ what: String) -> Outcome {
        inspector.enqueue(ServerMessage.inspectorStatus(.detached("asked for \(what) while attached to no application")).encoded())
        return .done
    }

    /// An application's report, for its inspector. Parts of a text whose
    /// earlier part was skipped are skipped too.
    func pass(_ report: ServerMessage.InspectorReport, from application: Client) -> Client? {
        if skippingRestOfText.contains(application.identifier) {
            if report.isLastPart { skippingRestOfText.remove(application.identifier) }
            return nil
        }
        guard let link = links.first(where: { $0.application === application }) else { return nil }
        link.inspector.enqueue(ServerMessage.inspectorReport(report).encoded())
        return link.inspector.queuedMessageCount > Self.maximumBacklog ? link.inspector : nil
    }

    /// An application sent an inspector message that does not read: it is
    /// skipped, with the rest of the text it belonged to, and its inspector
    /// is told. Nothing else changes.
    func skipMalformedMessage(from application: Client, _ error: ServerProtocolError) {
        log.report("malformed inspector message", "\"\(application.name.escapedForDisplay)\" (client \(application.identifier)) sent an inspector message that does not read (\(error)); skipped")
        guard let link = links.first(where: { $0.application === application }) else { return }
        skippingRestOfText.insert(application.identifier)
        link.inspector.enqueue(ServerMessage.inspectorStatus(.skipped(
            "the application sent an inspector message that does not read (\(error)); the text it was part of is dropped")).encoded())
    }

    /// The display showed `commit` of `application` from `buffer`: its
    /// inspector gets a copy, if it asked for one.
    func frameShown(of application: Client, commit: ServerMessage.FrameCommit, buffer: SharedFrameBuffer) {
        guard let index = links.firstIndex(where: { $0.application === application && $0.wantsFrame }) else { return }
        let copy: SharedFrameBuffer
        do {
            copy = try SharedFrameBuffer(width: buffer.width, height: buffer.height)
        } catch {
            log.report("inspector frame", "cannot make a buffer for an inspector's frame: \(error)")
            return
        }
        // The inspector reads rows in order: the ring of rows is put straight.
        let rowBytes = buffer.width * SharedFrameBuffer.bytesPerPixel
        let shown = DisplayFrame(buffer, firstRow: Int(commit.firstRow))
        for row in 0..<buffer.height {
            (copy.pixels + row * copy.stride).copyMemory(from: shown.row(row), byteCount: rowBytes)
        }
        links[index].wantsFrame = false
        let frame = ServerMessage.InspectorFrame(
            commitIdentifier: commit.commitIdentifier, width: UInt32(copy.width), height: UInt32(copy.height), stride: UInt32(copy.stride))
        links[index].inspector.enqueue(ServerMessage.inspectorFrame(frame).encoded(), passing: copy)
    }

    /// A client left: an inspector's application is told to stop; an
    /// application's inspector is told it left.
    func remove(_ client: Client) {
        skippingRestOfText.remove(client.identifier)
        detach(client, tellApplication: true, tellInspector: nil)
        for link in links where link.application === client {
            detach(link.inspector, tellApplication: false, tellInspector: "\"\(client.name.escapedForDisplay)\" left the server")
        }
    }

    private func detach(_ inspector: Client, tellApplication: Bool, tellInspector why: String?) {
        guard let index = links.firstIndex(where: { $0.inspector === inspector }) else { return }
        let link = links.remove(at: index)
        if tellApplication { link.application.enqueue(ServerMessage.inspectorCommand(.stop).encoded()) }
        if let why { inspector.enqueue(ServerMessage.inspectorStatus(.detached(why)).encoded()) }
    }
}
