#if canImport(Glibc)
import Glibc
#endif
import HID

/// The application's side of the screen: its frames go to the event
/// server, which shows them at the display's refresh (Wayland's frame cycle,
/// in the server's protocol).
///
/// 1. Once connected, the application makes two shared buffers of the
///    screen's size and attaches them.
/// 2. When a turn's commit changed what the screen shows, it asks for a
///    frame signal, unless it holds one it has not used.
/// 3. A frame signal comes a little before the display's refresh: display
///    links fire (their target is that refresh), and the turn's end draws
///    the damage straight into a buffer the server does not hold, and
///    commits that buffer with its damage.
/// 4. The server gives a buffer back once it is done with it: it copied
///    the frame out, a newer commit replaced it, or (a frame shown in
///    place) a newer frame replaced it on the screen.
///
/// The compositor's frame is one of the buffers (``current``): drawing the
/// damage there, and moving the pixels of a scroll there, leaves nothing to
/// copy. Each buffer is a ring of rows (its commit names the row the frame
/// starts at): a scroll of a list as wide as the screen turns the ring
/// rather than moving the pixels. When the server still holds that buffer,
/// the frame moves to another: that one's ring is turned by the scrolls of
/// whole rows it missed, and what else it missed since it was last drawn
/// in comes from the buffer drawn last, in the same pass as the frame's
/// scrolls, so the frame that moves costs what one drawn in place costs
/// (a flung list copies the rows it brings into view, not the screen),
/// and one late frame does not make the next late too.
///
/// How long the server holds a buffer depends on its output. One that
/// copies the frame out (an X window, the frame buffer) gives it back at
/// the refresh that shows it, so the buffer drawn last is normally free
/// again when the next signal comes, and two buffers are enough. One that
/// shows frames in place (headless, as a display scans out a buffer) holds
/// the buffer on the screen until a newer frame replaces it, so each frame
/// moves to the other buffer (the server copies nothing); and when a frame
/// came after its refresh, both are held at the next signal: a third
/// buffer is drawn in rather than the frame skipped. The application makes
/// that buffer once a frame left the buffer the server presented and still
/// holds, or two frames in a row moved (the server holds the buffer on the
/// screen), after that frame's commit, with its pages made on a thread of
/// its own: made when a late frame's successor needs it, its fresh pages
/// would make that frame late too.
///
/// So an idle application sends nothing and draws nothing, one with display
/// links asks for every refresh, and at most one frame is committed per
/// refresh.
@MainActor
final class ScreenFrames {
    private struct Buffer {
        let identifier: UInt32
        let memory: SharedFrameBuffer
        /// Committed and not yet given back by the server.
        var isHeld = false
        /// The commit it was last committed with, and whether the server
        /// presented that commit and has not given the buffer back yet: it
        /// shows the buffer itself (headless), not a copy.
        var commitIdentifier: UInt64 = 0
        var isOnScreen = false
        /// The buffer row holding the frame's top row as last committed:
        /// the buffer is a ring of rows, turned by scrolls of whole rows.
        var firstRow = 0
        /// What frames drawn into the other buffers changed since this one
        /// was last drawn: their scrolls of whole rows as a turn of its
        /// ring, the rest brought over as the compositor draws in it again.
        var missing = FrameLag()

        /// The buffer's pixels as the compositor draws them.
        var frameStorage: UnsafeMutablePointer<UInt32> { memory.pixels.assumingMemoryBound(to: UInt32.self) }
    }

    private let connection: EventServerConnection
    let compositor: LayerCompositor
    @exclusivity(unchecked) private var buffers: [Buffer] = []
    /// The buffer the compositor's frame is in.
    @exclusivity(unchecked) private var current = 0
    /// Frames in a row that moved to another buffer.
    @exclusivity(unchecked) private var framesMovedInARow = 0
    /// A frame signal arrived and no frame was committed for it yet.
    @exclusivity(unchecked) private(set) var holdsFrameSignal = false
    @exclusivity(unchecked) private var hasRequestedFrame = false
    @exclusivity(unchecked) private var nextCommitIdentifier: UInt64 = 1
    /// The last commit's scrolls, damage and message, each written over by
    /// the next commit's: made anew, they were three allocations a frame.
    @exclusivity(unchecked) private var commitScrolls: [ServerMessage.FrameScroll] = []
    @exclusivity(unchecked) private var commitDamage: [ServerMessage.PixelRect] = []
    @exclusivity(unchecked) private var commitMessage: [UInt8] = []
    /// A frame request's message, the same every time.
    private static let requestFrameMessage = ServerMessage.requestFrame.encoded()
    /// Touch to photon: the server's read time of the oldest event
    /// delivered since the last commit, then of each commit not yet
    /// presented. A discarded commit's events are shown by the newer
    /// commit that replaced it.
    @exclusivity(unchecked) private var oldestUndrawnReadTime: Double?
    @exclusivity(unchecked) private var commitReadTimes: [(commit: UInt64, readTime: Double)] = []
    /// For each frame presented that showed events: from the server's read
    /// of its oldest event to the refresh that presented it, in seconds;
    /// kept only while ``recordsTouchToPhoton`` (a benchmark's choice).
    private(set) var touchToPhotonLatencies: [Double] = []
    /// The refreshes that presented a frame, in order, kept only while
    /// ``recordsTouchToPhoton``: a gap is a refresh with no new frame.
    private(set) var presentedRefreshes: [UInt64] = []
    /// How long before its refresh each frame signal arrived, in seconds,
    /// kept only while ``recordsTouchToPhoton``: the server's lead, and
    /// the time the signal took to reach the application.
    private(set) var signalLeads: [Double] = []
    /// Each frame drawn for a signal, kept only while
    /// ``recordsTouchToPhoton``: when its steps happened, and the refresh
    /// that showed it.
    private(set) var frameRecords: [FrameRecord] = []
    /// The refreshes signalled, in order, kept only while
    /// ``recordsTouchToPhoton``: a gap is a refresh the application was not
    /// signalled for (it asked too late).
    private(set) var signalledRefreshes: [UInt64] = []
    @exclusivity(unchecked) var recordsTouchToPhoton = false
    /// The signal held, when it was read and the main thread's use so
    /// far then: the refresh a frame drawn now is for.
    private var heldSignal: (signal: ServerMessage.FrameSignal, arrival: Double, usage: ThreadUsage)?

    /// Buffers an application makes when it connects.
    static let initialBufferCount = 2
    /// Buffers it may have: a third when the server holds one on the
    /// screen and a late frame's, both at once; made ahead of that, once
    /// two frames in a row moved to another buffer.
    static let maximumBufferCount = 3
    private let pixelWidth: Int
    private let pixelHeight: Int

    init(connection: EventServerConnection, screenWidth: Double, screenHeight: Double, scale: Double) throws {
        self.connection = connection
        let width = Int((screenWidth * scale).rounded()), height = Int((screenHeight * scale).rounded())
        compositor = try LayerCompositor(rootLayer: CALayer(), pixelWidth: width, pixelHeight: height, scale: CGFloat(scale))
        compositor.setRootLayers([])
        pixelWidth = width
        pixelHeight = height
        // The compositor's frame, all zero as a new buffer is, moves into
        // the first buffer; the others lack whatever it draws.
        for _ in 0..<Self.initialBufferCount { try addBuffer(lackingFrame: !buffers.isEmpty) }
        compositor.useFrameStorage(buffers[current].frameStorage)
    }

    /// Makes a buffer of the screen's size and attaches it; `ahead`, for a
    /// frame to come, its pages are made on another thread.
    private func addBuffer(lackingFrame: Bool, ahead: Bool = false) throws {
        let memory = try SharedFrameBuffer(width: pixelWidth, height: pixelHeight, makingPages: !ahead)
        if ahead { Self.makePagesOnAThreadOfItsOwn(memory) }
        memory.pixels.bindMemory(to: UInt32.self, capacity: pixelWidth * pixelHeight)
        var missing = FrameLag()
        if lackingFrame { missing.lackWhole(PixelRect(x0: 0, y0: 0, x1: pixelWidth, y1: pixelHeight)) }
        let identifier = UInt32(buffers.count + 1)
        try connection.attach(memory.attachment(identifier: identifier), descriptor: memory.fileDescriptor)
        buffers.append(Buffer(identifier: identifier, memory: memory, missing: missing))
    }

    /// Makes `memory`'s pages on a thread that ends once they are made: a
    /// worker of Dispatch's pool would stay, and wake every second of an
    /// idle application's life. Without a thread the pages are made as
    /// the first frame drawn in the buffer touches them.
    nonisolated private static func makePagesOnAThreadOfItsOwn(_ memory: SharedFrameBuffer) {
        let retained = Unmanaged.passRetained(memory).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<SharedFrameBuffer>.fromOpaque(argument).takeRetainedValue().makePages()
            return nil
        }, retained)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<SharedFrameBuffer>.fromOpaque(retained).release()
        }
    }

    /// Whether the end of this turn has frame work: damage it may draw now,
    /// or display links that need the next refresh asked for.
    var hasWork: Bool {
        if compositor.hasDamage { return true }
        return DisplayLinkRegistry.current.hasLinks && !hasRequestedFrame
    }

    /// The refresh `signal` came: display links fire for it.
    func frameSignalArrived(_ signal: ServerMessage.FrameSignal) {
        holdsFrameSignal = true
        hasRequestedFrame = false
        if recordsTouchToPhoton {
            let now = monotonicSeconds()
            heldSignal = (signal, now, ThreadUsage.now())
            signalLeads.append(signal.time - now)
            signalledRefreshes.append(signal.sequence)
        }
        // The frame on the screen is the one before the refresh signalled.
        DisplayLinkRegistry.current.displayDidRefresh(at: signal.time - signal.refreshInterval, frameDuration: signal.refreshInterval)
        // Links fire at every refresh, whether or not a frame is drawn.
        if DisplayLinkRegistry.current.hasLinks { requestFrame() }
    }

    /// The end of a turn, after its commit: draws and commits the frame if
    /// it may, else asks for the refresh it needs.
    func endOfTurn(windowsBackToFront: [CALayer]) {
        compositor.setRootLayers(windowsBackToFront)
        if compositor.hasDamage {
            if holdsFrameSignal, let index = freeBuffer() {
                drawAndCommit(into: index)
                holdsFrameSignal = false
            } else if !holdsFrameSignal {
                requestFrame()
            }
        }
        // A link just added needs the next refresh.
        if DisplayLinkRegistry.current.hasLinks { requestFrame() }
    }

    /// The server is done with a buffer.
    func bufferReleased(_ identifier: UInt32) {
        for index in buffers.indices where buffers[index].identifier == identifier {
            buffers[index].isHeld = false
            buffers[index].isOnScreen = false
        }
    }

    func framePresented(_ presentation: ServerMessage.FramePresentation) {
        UIApplication.shared.tracing?.trace(.framePresented(commitIdentifier: presentation.commitIdentifier, time: presentation.time))
        for index in buffers.indices where buffers[index].isHeld && buffers[index].commitIdentifier == presentation.commitIdentifier {
            buffers[index].isOnScreen = true
        }
        if recordsTouchToPhoton {
            presentedRefreshes.append(presentation.sequence)
            for index in frameRecords.indices.reversed() where frameRecords[index].commitIdentifier == presentation.commitIdentifier {
                frameRecords[index].presentedRefresh = presentation.sequence
                break
            }
        }
        if let readTime = takeReadTime(of: presentation.commitIdentifier), recordsTouchToPhoton {
            touchToPhotonLatencies.append(presentation.time - readTime)
        }
    }

    /// The server discarded a commit: a newer one came before the refresh
    /// (the discarded one was late), or the application is in the back.
    /// The newer commit, drawn after everything the discarded one showed,
    /// is the first to show its events, so they count from its
    /// presentation; with no newer commit yet, from the next frame's.
    /// (They counted from the frame after the newer one before, an interval
    /// too long for each event of a late frame.)
    func frameDiscarded(_ commitIdentifier: UInt64) {
        guard let readTime = takeReadTime(of: commitIdentifier) else { return }
        // The server replaces a pending commit with the next one it reads.
        let newer = commitIdentifier + 1
        guard newer < nextCommitIdentifier else { return eventDelivered(readTime: readTime) }
        var shownByNewer = false
        for index in commitReadTimes.indices where commitReadTimes[index].commit == newer {
            commitReadTimes[index].readTime = min(commitReadTimes[index].readTime, readTime)
            shownByNewer = true
        }
        if !shownByNewer { commitReadTimes.append((newer, readTime)) }
        for index in frameRecords.indices.reversed() where frameRecords[index].commitIdentifier == newer {
            frameRecords[index].oldestEventReadTime = min(frameRecords[index].oldestEventReadTime ?? readTime, readTime)
            break
        }
    }

    /// An event the server read at `readTime` was delivered: the next frame shows it.
    func eventDelivered(readTime: Double) {
        if let oldest = oldestUndrawnReadTime, oldest <= readTime { return }
        oldestUndrawnReadTime = readTime
    }

    func resetTouchToPhotonLatencies() {
        touchToPhotonLatencies.removeAll(keepingCapacity: true)
        presentedRefreshes.removeAll(keepingCapacity: true)
        signalLeads.removeAll(keepingCapacity: true)
        frameRecords.removeAll(keepingCapacity: true)
        signalledRefreshes.removeAll(keepingCapacity: true)
    }

    private func takeReadTime(of commit: UInt64) -> Double? {
        for index in commitReadTimes.indices where commitReadTimes[index].commit == commit {
            return commitReadTimes.remove(at: index).readTime
        }
        return nil
    }

    /// Touch moves are held for the next refresh (`UIApplication`'s event
    /// source, step 3): it is asked for, whether or not anything changed.
    func touchesAwaitRefresh() {
        requestFrame()
    }

    /// The application came back to the front: the server shows its next
    /// frame whole, so it draws one.
    func redrawWhole() {
        compositor.damageWholeFrame()
        requestFrame()
    }

    private func requestFrame() {
        guard !hasRequestedFrame else { return }
        hasRequestedFrame = true
        connection.send(Self.requestFrameMessage)
    }

    /// A buffer the server does not hold: the compositor's own if it can,
    /// else another, else a new one while there may be more. Nil when none
    /// can be had: the frame waits for a buffer the server gives back.
    private func freeBuffer() -> Int? {
        if !buffers[current].isHeld { return current }
        for index in buffers.indices where !buffers[index].isHeld { return index }
        guard buffers.count < Self.maximumBufferCount, (try? addBuffer(lackingFrame: true)) != nil else { return nil }
        return buffers.count - 1
    }

    private func drawAndCommit(into index: Int) {
        let drawStart = recordsTouchToPhoton ? monotonicSeconds() : 0
        let usageAtDrawStart = recordsTouchToPhoton ? ThreadUsage.now() : ThreadUsage()
        let movesBuffer = index != current
        let leavesTheScreensBuffer = movesBuffer && buffers[current].isOnScreen
        if movesBuffer {
            // The compositor brings over what the buffer missed as it draws.
            let lag = buffers[index].missing
            compositor.moveFrameStorage(
                to: buffers[index].frameStorage, firstRow: lag.firstRow(turning: buffers[index].firstRow, height: pixelHeight), lacking: lag.rects.rects)
            current = index
        }
        let damage = compositor.renderFramePixelRects()
        let renderEnd = recordsTouchToPhoton ? monotonicSeconds() : 0
        // Emptied once the frame is drawn: the compositor holds what the
        // buffer lacked until then, and emptied before, its storage was
        // made anew at every frame that moved.
        if movesBuffer { buffers[index].missing.removeAll() }
        for other in buffers.indices where other != index { compositor.addLastFrame(to: &buffers[other].missing) }
        buffers[index].firstRow = compositor.frameFirstRow
        changesForTheServer(scrolls: &commitScrolls, damage: &commitDamage)
        buffers[index].isHeld = true
        buffers[index].commitIdentifier = nextCommitIdentifier
        let commit = ServerMessage.FrameCommit(
            commitIdentifier: nextCommitIdentifier, bufferIdentifier: buffers[index].identifier,
            firstRow: UInt32(buffers[index].firstRow), scrolls: commitScrolls, damage: commitDamage)
        let oldestReadTime = oldestUndrawnReadTime
        if let readTime = oldestUndrawnReadTime {
            oldestUndrawnReadTime = nil
            commitReadTimes.append((commit.commitIdentifier, readTime))
        }
        nextCommitIdentifier += 1
        ServerMessage.commitFrame(commit).encode(into: &commitMessage)
        connection.send(commitMessage)
        if recordsTouchToPhoton, let (signal, arrival, usageAtArrival) = heldSignal {
            var pixels = 0
            for rect in damage { pixels += rect.width * rect.height }
            frameRecords.append(FrameRecord(
                commitIdentifier: commit.commitIdentifier, refresh: signal.sequence, refreshTime: signal.time,
                signalArrival: arrival, drawStart: drawStart, turnUsage: usageAtDrawStart.since(usageAtArrival), renderSeconds: renderEnd - drawStart,
                commitTime: monotonicSeconds(), damagedPixels: pixels, copiedPixels: compositor.pixelsCopied,
                movedBuffer: movesBuffer, oldestEventReadTime: oldestReadTime))
        }
        heldSignal = nil
        framesMovedInARow = movesBuffer ? framesMovedInARow + 1 : 0
        if leavesTheScreensBuffer || framesMovedInARow >= 2, buffers.count < Self.maximumBufferCount {
            // The server holds the buffer on the screen (this frame left
            // the one it presented, or two in a row moved): a late frame
            // will find both held. Made now, with the frame committed,
            // rather than in the frame that needs it, and its pages on
            // another thread: made in a frame they took the main thread
            // 9 ms, and a flung list's frame missed its refresh. Two moves
            // in a row came too late when the fling's first frames were
            // late: the third buffer was made in its second refresh.
            try? addBuffer(lackingFrame: true, ahead: true)
        }
    }
}

extension ScreenFrames {
    /// The frame just drawn's changes as its commit tells them, written
    /// over what `scrolls` and `damage` held: its scrolls, so that an output
    /// keeping its own copy of the screen (an X window, the frame buffer)
    /// moves it rather than reading the moved pixels again, then what was
    /// drawn. A scroll the protocol cannot carry (past the most a commit
    /// holds, not inside the frame) goes as the rectangle it moved pixels
    /// into, and so does every scroll after it, which might move those
    /// pixels on.
    fileprivate func changesForTheServer(scrolls: inout [ServerMessage.FrameScroll], damage: inout [ServerMessage.PixelRect]) {
        func message(_ rect: PixelRect) -> ServerMessage.PixelRect {
            ServerMessage.PixelRect(x: UInt32(rect.x0), y: UInt32(rect.y0), width: UInt32(rect.width), height: UInt32(rect.height))
        }
        let frame = PixelRect(x0: 0, y0: 0, x1: pixelWidth, y1: pixelHeight)
        scrolls.removeAll(keepingCapacity: true)
        damage.removeAll(keepingCapacity: true)
        var carried = true
        for scroll in compositor.lastFrameScrolls {
            let destination = scroll.destination.intersection(frame)
            guard !destination.isEmpty, scroll.dx != 0 || scroll.dy != 0 else { continue }
            carried = carried && scrolls.count < ServerProtocol.maximumScrolls && scroll.rect.intersection(frame) == scroll.rect
            if carried {
                scrolls.append(ServerMessage.FrameScroll(rect: message(scroll.rect), dx: Int32(scroll.dx), dy: Int32(scroll.dy)))
            } else {
                damage.append(message(destination))
            }
        }
        for rect in compositor.lastFrameDrawnRects where !rect.isEmpty { damage.append(message(rect)) }
    }
}

/// How one frame went, from its signal to its presentation (for
/// benchmarks): times in seconds of `CLOCK_MONOTONIC`.
@_spi(Benchmarks) public struct FrameRecord: Sendable {
    public let commitIdentifier: UInt64
    /// The refresh the frame was drawn for (its signal's).
    public let refresh: UInt64
    public let refreshTime: Double
    /// When the application read the signal.
    public let signalArrival: Double
    /// When drawing began: after the turn's touches, display links,
    /// layout and commit.
    public let drawStart: Double
    /// What the main thread did between reading the signal and drawing
    /// (``drawStart``): a slow turn that used the processor all along was
    /// work, one that did not was waiting (preempted, or its processor
    /// taken by the host).
    public let turnUsage: ThreadUsage
    /// How long the compositor took to draw it, with the pixels it copied.
    public let renderSeconds: Double
    /// When it was committed.
    public let commitTime: Double
    /// Pixels the server was told changed (moved or drawn).
    public let damagedPixels: Int
    /// Pixels copied rather than drawn: moved by a scroll, or brought over
    /// from the buffer drawn last.
    public let copiedPixels: Int
    /// Whether the frame moved to another buffer (the server still held
    /// the one drawn last: on the screen, or the frame before was late).
    public let movedBuffer: Bool
    /// When the server read the oldest event the frame is the first to
    /// show (those of a frame it replaced included); nil when it shows none.
    public internal(set) var oldestEventReadTime: Double?
    /// The refresh that showed it; nil if it was discarded (or not yet shown).
    public internal(set) var presentedRefresh: UInt64?
}

/// The calling thread's use of the processor so far (`getrusage` for the
/// thread), or between two such readings: for benchmarks, to tell a slow
/// step that worked from one that waited.
@_spi(Benchmarks) public struct ThreadUsage: Sendable, Equatable {
    /// Seconds of processor time, the kernel's and its own. A processor
    /// the host took away (steal) is not counted.
    public var processorSeconds: Double
    /// Page faults, minor (a page mapped) and major (read from a file).
    public var pageFaults: Int
    /// Times the thread gave the processor up to wait (a read, a lock, a
    /// page read in), and times the scheduler took it away.
    public var waits: Int
    public var preemptions: Int

    public init(processorSeconds: Double = 0, pageFaults: Int = 0, waits: Int = 0, preemptions: Int = 0) {
        self.processorSeconds = processorSeconds
        self.pageFaults = pageFaults
        self.waits = waits
        self.preemptions = preemptions
    }

    /// The calling thread's so far.
    public static func now() -> ThreadUsage {
        var usage = rusage()
        // RUSAGE_THREAD (1, Linux's own), which the Glibc module leaves out.
        getrusage(1, &usage)
        let microseconds = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
        return ThreadUsage(
            processorSeconds: Double(microseconds) / 1e6, pageFaults: usage.ru_minflt + usage.ru_majflt,
            waits: usage.ru_nvcsw, preemptions: usage.ru_nivcsw)
    }

    /// What was used since `earlier`.
    public func since(_ earlier: ThreadUsage) -> ThreadUsage {
        ThreadUsage(
            processorSeconds: processorSeconds - earlier.processorSeconds, pageFaults: pageFaults - earlier.pageFaults,
            waits: waits - earlier.waits, preemptions: preemptions - earlier.preemptions)
    }
}

/// Why refreshes showed no new frame while an application's frames kept
/// coming (for benchmarks): every refresh from the first that presented
/// one of its frames to the last, that presented none, with its one reason.
/// A frame drawn for it came after it or was replaced (late), or the
/// application was not signalled for it (it asked too late): both are
/// refreshes missed. Or it was signalled and drew nothing, since nothing
/// had changed: a flung list, slowing down, moves less than a pixel in
/// some refreshes, and its offset is shown on the pixel grid, as UIKit's
/// is, so there is nothing new to show.
@_spi(Benchmarks) public struct RefreshesWithoutANewFrame: Sendable, Equatable {
    /// Refreshes a frame was drawn for that showed it only later, or never.
    public var late = 0
    /// Refreshes the application was not signalled for.
    public var unsignalled = 0
    /// Refreshes signalled for which nothing was drawn: nothing had changed.
    public var unchanged = 0

    /// The refreshes missed: late or not signalled.
    public var missed: Int { late + unsignalled }
    /// Every refresh with no new frame.
    public var count: Int { missed + unchanged }

    public init(late: Int = 0, unsignalled: Int = 0, unchanged: Int = 0) {
        self.late = late
        self.unsignalled = unsignalled
        self.unchanged = unchanged
    }

    /// Sorts the refreshes between the first and last of `presented` that
    /// are not among them, from what was signalled and drawn.
    public init(presented: [UInt64], signalled: [UInt64], frames: [FrameRecord]) {
        guard let first = presented.min(), let last = presented.max() else { return }
        var drawnFor: Set<UInt64> = []
        for frame in frames { drawnFor.insert(frame.refresh) }
        let shown = Set(presented), signalledOnes = Set(signalled)
        for refresh in first...last where !shown.contains(refresh) {
            if !signalledOnes.contains(refresh) {
                unsignalled += 1
            } else if drawnFor.contains(refresh) {
                late += 1
            } else {
                unchanged += 1
            }
        }
    }
}
