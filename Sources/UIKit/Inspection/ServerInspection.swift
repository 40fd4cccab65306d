import HID

/// The application's side of `openuikit inspect --attach`: the event
/// server passes an inspector's commands to the application on its socket,
/// and the application answers with an ``InspectionFeed``'s texts (its
/// tree, the trace of its events, each touch's responder chain), sent to
/// the server in inspector reports, which it passes on to the inspector.
///
/// The server lets only a process of the application's own user attach;
/// the application answers whatever its server asks (it trusts the server
/// it connected to, `ServerTrust`). Touches from the inspector come as
/// input through the server, and frames from the server's display: neither
/// goes through here.
@MainActor
final class ServerInspection {
    private unowned let connection: EventServerConnection
    private var feed: InspectionFeed?

    init(connection: EventServerConnection) {
        self.connection = connection
    }

    var isInspected: Bool { feed != nil }

    func handle(_ command: ServerMessage.InspectorCommand, screenFrames: ScreenFrames?) {
        switch command {
        case .start:
            feed?.stop()
            let feed = InspectionFeed(windows: { Self.visibleWindows() }) { [unowned self] text in report(text) }
            self.feed = feed
            feed.start()
            feed.sendTree()
            // The inspector's first frame: the server copies the next frame it shows.
            screenFrames?.redrawWhole()
        case .tree:
            feed?.sendTree()
        case .stop:
            stop()
        }
    }

    func stop() {
        feed?.stop()
        feed = nil
    }

    private static func visibleWindows() -> [UIWindow] {
        UIApplication.shared.windows.filter { !$0.isHidden }
    }

    /// Sends `text` in as many reports as it takes. A report that cannot be
    /// sent (the server is far behind) ends the inspection rather than the
    /// application: the inspector would get a cut text.
    private func report(_ text: String) {
        guard !connection.sendInspectorReport(text) else { return }
        UIApplication.shared.diagnostics.report(Diagnostic(.inputPort, "an inspector report could not be sent to the event server in time; the inspection stops"))
        stop()
    }
}
