import HID

/// What the screen shows, refresh by refresh: the front application's
/// latest complete frame (SPEC's screen; Wayland's frame cycle).
///
/// Applications ask for a frame signal, draw into a buffer the server does
/// not hold, and commit it with its damage. At each refresh of the
/// ``FrameClock`` the presenter
/// 1. a little before the refresh, sends the front application the frame
///    signal it asked for (with a finger down, as soon as it asks, with
///    the time to start drawing: ``FrameClock/signalOnRequest(now:)``);
/// 2. at the refresh, shows the front application's pending commit, if it
///    has one (the whole frame when the front application changed, else
///    its scrolls and damage), and tells it the frame was presented and which buffer
///    is free: that one, with an output that copies it; with one that shows
///    it in place, the buffer of the frame it replaced on the screen.
///
/// The signal goes out a little before the refresh (``FrameClock``), so a
/// frame drawn at the signal is shown at that refresh.
///
/// A commit replaced by a newer one before a refresh is discarded; a
/// background application's commits are discarded at once and it gets no
/// frame signals, so its display links pause, as on iOS. A frame is shown
/// only whole: the output copies a committed buffer, which the application
/// no longer touches, in one call, or shows it while the application
/// cannot touch it.
///
/// The clock runs while the front application needs refreshes: it asked
/// for a signal, has a commit waiting, or, responding, owes
/// acknowledgements (its messages are then read at each refresh, since
/// they do not wake the server, and a commit may wait behind them). After
/// two refreshes with nothing to do it stops.
final class FramePresenter {
    let output: any DisplayOutput
    let clock: FrameClock
    let pixelWidth: Int
    let pixelHeight: Int
    /// The application whose frame is on the screen.
    private var shownClient: UInt32?
    /// The buffer on the screen while the output shows it in place, and
    /// its application: given back when a newer frame replaces it.
    private var bufferOnScreen: (client: Client, buffer: UInt32)?
    private var titledClient: UInt32?
    private var idleRefreshes = 0
    /// The signals sent that no commit answered yet, oldest first: to
    /// whom, and when the frame was to start (the signal's due time, or
    /// the start sent with it). A commit answers the oldest, and how long
    /// it took from there sets the clock's lead
    /// (``FrameClock/noteDrawTime(_:)``). There may be two: with a finger
    /// down the next signal goes out as soon as it is asked for, which may
    /// be before the commit of the frame in hand (its touches came in the
    /// turn that draws it).
    private var signalled: [(client: UInt32, start: Double)] = []
    /// Called with each frame shown, while the buffer is still the
    /// server's: the inspectors' copy is taken here.
    var frameShown: ((Client, ServerMessage.FrameCommit, SharedFrameBuffer) -> Void)?
    /// Refreshes with nothing to do after which the clock stops.
    static let idleRefreshesBeforeStopping = 2

    init(output: any DisplayOutput, clock: FrameClock, screen: Screen) {
        self.output = output
        self.clock = clock
        pixelWidth = screen.pixelWidth
        pixelHeight = screen.pixelHeight
    }

    /// Whether `client` was signalled and has not committed yet: its
    /// commit is read as soon as it comes, since how long it took sets the
    /// lead.
    func awaitsCommit(from client: Client) -> Bool {
        signalled.contains { $0.client == client.identifier }
    }

    /// Takes one of an application's frame messages; throws why it is
    /// refused, and the server then drops the application.
    func handle(_ message: ServerMessage, descriptor: Int32?, from client: Client, isFront: Bool, now: Double) throws(ApplicationFrames.Refusal) {
        switch message {
        case .attachBuffer(let attachment):
            try client.frames.attach(attachment, descriptor: descriptor, screenWidth: pixelWidth, screenHeight: pixelHeight)
        case .requestFrame:
            client.frames.wantsFrameSignal = true
            // With a finger down the signal goes at once, with its start.
            if isFront {
                clock.start(now: now)
                if let (sequence, start) = clock.signalOnRequest(now: now) { signal(client, for: sequence, start: start, now: now) }
            }
        case .commitFrame(let commit):
            if let replaced = try client.frames.commit(commit) { discard(replaced, of: client) }
            // A commit more than an interval after its signal answers
            // something else (an application may keep an unused signal and
            // draw with it when a finger lands): it says nothing of how
            // long a frame takes.
            if let oldest = signalled.first, oldest.client == client.identifier {
                if isFront, now - oldest.start < clock.interval { clock.noteDrawTime(now - oldest.start) }
                signalled.removeFirst()
            }
            if !isFront, let (late, _) = client.frames.takePendingCommit() { discard(late, of: client) }
        default:
            return
        }
        if isFront { clock.start(now: now) }
    }

    /// The clock fired: a little before a refresh, the front application
    /// is signalled; at the refresh, its latest commit is shown.
    func clockFired(now: Double, front: Client?, applications: [Client]) {
        switch clock.takeMoment(now: now) {
        case nil: return
        case (.signal(let sequence), let due)?: signal(front, for: sequence, start: due, now: now)
        case (.refresh(let sequence), _)?: refresh(sequence, front: front, applications: applications)
        }
    }

    /// Sends the signal the front application asked for: the frame it
    /// starts at `start` is for refresh `sequence`. Its time to commit
    /// counts from `start`.
    private func signal(_ front: Client?, for sequence: UInt64, start: Double, now: Double) {
        guard let front, front.frames.wantsFrameSignal else { return clock.signalWentUnasked(sequence) }
        front.frames.wantsFrameSignal = false
        // A signal unanswered for an interval (nothing changed at its
        // refresh), or another application's, waits for no commit now.
        signalled.removeAll { $0.client != front.identifier || now - $0.start >= clock.interval }
        signalled.append((front.identifier, start))
        front.enqueue(ServerMessage.frameSignal(.init(
            sequence: sequence, time: clock.time(of: sequence), refreshInterval: clock.interval, startTime: start)).encoded())
        idleRefreshes = 0
    }

    private func refresh(_ sequence: UInt64, front: Client?, applications: [Client]) {
        let time = clock.time(of: sequence)
        var didWork = false
        for client in applications where client !== front {
            if let (stale, _) = client.frames.takePendingCommit() { discard(stale, of: client) }
            client.frames.commitsSinceRefresh = 0
        }
        if let front {
            front.frames.commitsSinceRefresh = 0
            if titledClient != front.identifier {
                titledClient = front.identifier
                output.setTitle(front.name)
            }
            if let (commit, buffer) = front.frames.takePendingCommit() {
                let whole = shownClient != front.identifier
                shownClient = front.identifier
                let damage = whole ? [ServerMessage.PixelRect(x: 0, y: 0, width: UInt32(buffer.width), height: UInt32(buffer.height))] : commit.damage
                // A scroll moves what the screen shows of the same
                // application's frame before: none when it shows another's.
                output.show(DisplayFrame(buffer, firstRow: Int(commit.firstRow)), scrolls: whole ? [] : commit.scrolls, damage: damage)
                frameShown?(front, commit, buffer)
                front.enqueue(ServerMessage.framePresented(.init(
                    commitIdentifier: commit.commitIdentifier, sequence: sequence, time: time, refreshInterval: clock.interval)).encoded())
                if output.showsFramesInPlace {
                    if let (client, replaced) = bufferOnScreen {
                        client.frames.bufferOnScreen = nil
                        client.enqueue(ServerMessage.bufferReleased(replaced).encoded())
                    }
                    bufferOnScreen = (front, commit.bufferIdentifier)
                    front.frames.bufferOnScreen = commit.bufferIdentifier
                } else {
                    front.enqueue(ServerMessage.bufferReleased(commit.bufferIdentifier).encoded())
                }
                didWork = true
            }
            // Asked after this refresh's signal: it gets the next one.
            if front.frames.wantsFrameSignal { didWork = true }
            if front.unacknowledgedCount > 0 && front.isResponding { didWork = true }
        }
        idleRefreshes = didWork ? 0 : idleRefreshes + 1
        if idleRefreshes >= Self.idleRefreshesBeforeStopping { clock.stop() }
    }

    /// At the end of a turn: the clock runs if the front application needs it.
    func startClockIfNeeded(front: Client?, now: Double) {
        guard let front, !clock.isRunning else { return }
        if front.frames.wantsFrameSignal || front.frames.hasPendingCommit || (front.unacknowledgedCount > 0 && front.isResponding) {
            idleRefreshes = 0
            clock.start(now: now)
        }
    }

    /// An application left: if its frame is on the screen, the next
    /// application's first frame is shown whole. A frame shown in place
    /// stays on the screen until then (the output keeps its buffer mapped).
    func remove(_ client: Client) {
        if shownClient == client.identifier { shownClient = nil }
        if bufferOnScreen?.client === client { bufferOnScreen = nil }
        if titledClient == client.identifier { titledClient = nil }
        signalled.removeAll { $0.client == client.identifier }
    }

    private func discard(_ commit: ServerMessage.FrameCommit, of client: Client) {
        client.enqueue(ServerMessage.frameDiscarded(commit.commitIdentifier).encoded())
        client.enqueue(ServerMessage.bufferReleased(commit.bufferIdentifier).encoded())
    }
}
