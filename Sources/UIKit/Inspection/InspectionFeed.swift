import Foundation

/// What an inspector sees of the application as it runs, as the JSON texts
/// the inspector's page reads: every step of its events (`trace`, in the
/// trace's format), the responder chain of each touch as it is bound
/// (`chain`), and the view tree (`tree`).
///
/// One home for both inspectors: `openuikit inspect SCENE`, which runs the
/// scene in its own process, and an application inspected through the
/// event server (`openuikit inspect --attach`), which answers its
/// inspector's requests with the texts this makes.
///
/// While started it is the application's `traceHandler`. Records are sent
/// once the event source has delivered what arrived, and after each
/// commit. The tree is described when asked, and again after a change it
/// shows (a layout pass, a recognizer's state, a touch ending), at most
/// once per frame of the screen (``treeInterval``).
@MainActor
package final class InspectionFeed {
    private let application = UIApplication.shared
    private let windows: @MainActor () -> [UIWindow]
    private let send: @MainActor (String) -> Void
    /// Names every object in trace records and the tree with one number.
    package private(set) var encoder = TraceJSONEncoder()
    /// Trace records not yet sent, as JSON; at most ``maximumPendingRecords``.
    private var pendingRecords: [String] = []
    private var droppedRecords = 0
    package static let maximumPendingRecords = 50_000
    /// The touches bound since the last flush, whose responder chains go with the records.
    private var boundTouches: [(touch: Int, view: UIView)] = []
    private var treeIsStale = true
    private var lastTreeTime: TimeInterval?
    private var treeTimer: RunLoopTimer?
    /// How long the last tree took to describe and how many views it had.
    package private(set) var lastTreeMeasurement: (views: Int, milliseconds: Double)?
    /// The trace handler the application had before, put back by ``stop()``.
    private var previousTraceHandler: (@MainActor (TraceRecord) -> Void)?
    private(set) var isStarted = false
    /// Called after each commit, before the records and the tree are sent:
    /// the in-process inspector draws its frame then.
    package var afterCommit: (@MainActor () -> Void)?

    /// The share of the time the tree may take to describe: a tree that
    /// takes longer than a fifth of a frame (a 10,000-view one in a debug
    /// build takes 0.4 s) is described less often than every frame, so
    /// that the application keeps most of its time.
    static let treeDescriptionShare = 0.2

    /// A feed of `windows`' trees and their application's events, sent to `send`.
    package init(windows: @escaping @MainActor () -> [UIWindow], send: @escaping @MainActor (String) -> Void) {
        self.windows = windows
        self.send = send
    }

    /// Begins watching: becomes the application's trace handler.
    package func start() {
        guard !isStarted else { return }
        isStarted = true
        previousTraceHandler = application.traceHandler
        application.traceHandler = { [unowned self] record in traced(record) }
        application.didCommit = { [unowned self] in committed() }
        application.didHandleEvents = { [unowned self] in flushAfterEvents() }
        treeIsStale = true
    }

    /// Stops watching and puts the application's own trace handler back.
    package func stop() {
        guard isStarted else { return }
        isStarted = false
        application.traceHandler = previousTraceHandler
        previousTraceHandler = nil
        application.didCommit = nil
        application.didHandleEvents = nil
        treeTimer?.invalidate()
        treeTimer = nil
        pendingRecords = []
        boundTouches = []
    }

    /// Starts numbering objects afresh and forgets what was not sent: a new scene.
    package func reset() {
        encoder = TraceJSONEncoder()
        pendingRecords = []
        droppedRecords = 0
        boundTouches = []
        treeIsStale = true
    }

    // MARK: What the application does

    private func traced(_ record: TraceRecord) {
        switch record.step {
        case .touchBound(let view?, _):
            if let touch = record.touchIDs.first { boundTouches.append((touch, view)) }
        case .layout, .gestureStateChanged:
            treeIsStale = true
        case .touchesDelivered(let phase, _, _) where phase == .ended || phase == .cancelled:
            treeIsStale = true
        default:
            break
        }
        if pendingRecords.count < Self.maximumPendingRecords {
            pendingRecords.append(encoder.encode(record))
        } else {
            droppedRecords += 1
        }
    }

    private func committed() {
        afterCommit?()
        flushRecords()
        sendTreeIfDue()
    }

    /// What the events left to send: their records, and the tree if it changed.
    package func flushAfterEvents() {
        flushRecords()
        sendTreeIfDue()
    }

    /// Sends the trace records gathered since the last flush, with the
    /// responder chain of each touch bound meanwhile.
    package func flushRecords() {
        for (touch, view) in boundTouches {
            var chain: [String] = []
            var responder: UIResponder? = view
            while let current = responder, chain.count < 1_000 {
                chain.append(encoder.object(current))
                responder = current.next
            }
            send("{\"type\":\"chain\",\"touch\":\(touch),\"chain\":[\(chain.joined(separator: ","))]}")
        }
        boundTouches = []
        guard !pendingRecords.isEmpty || droppedRecords > 0 else { return }
        send("{\"type\":\"trace\",\"dropped\":\(droppedRecords),\"records\":[\(pendingRecords.joined(separator: ","))]}")
        pendingRecords = []
        droppedRecords = 0
    }

    // MARK: The tree

    /// The least time between two trees sent because the tree changed: a
    /// frame of the screen, or longer for a tree slow to describe
    /// (``treeDescriptionShare``).
    var treeInterval: TimeInterval {
        let frame = 1 / TimeInterval(UIScreen.main.maximumFramesPerSecond)
        let describing = (lastTreeMeasurement?.milliseconds ?? 0) / 1000
        return max(frame, describing / Self.treeDescriptionShare)
    }

    /// Sends the tree if it changed and the last one is at least
    /// ``treeInterval`` old; otherwise, once it is.
    private func sendTreeIfDue() {
        guard treeIsStale, isStarted else { return }
        let now = application.runLoop.clock.now
        if let last = lastTreeTime, now - last < treeInterval {
            guard treeTimer == nil else { return }
            treeTimer = application.runLoop.schedule(after: last + treeInterval - now) { [weak self] _ in
                self?.treeTimer = nil
                self?.sendTreeIfDue()
            }
            return
        }
        sendTree()
    }

    /// Describes the view tree now.
    ///
    /// The description is timed on the run loop's clock, like the interval
    /// it sets: on the manual clock of tests it takes no time, so a loaded
    /// machine cannot stretch the interval between trees there.
    package func sendTree() {
        treeIsStale = false
        let clock = application.runLoop.clock
        let start = clock.now
        lastTreeTime = start
        let description = ViewTreeDescription.json(of: windows(), encoder: encoder)
        let milliseconds = (clock.now - start) * 1000
        lastTreeMeasurement = (description.viewCount, milliseconds)
        send("{\"type\":\"tree\",\"viewCount\":\(description.viewCount),\"milliseconds\":\(TraceJSONEncoder.number(milliseconds)),\"views\":\(description.json)}")
    }

    /// An `error` message for the page.
    package static func errorMessage(_ text: String) -> String {
        "{\"type\":\"error\",\"message\":\(TraceJSONEncoder.string(text))}"
    }
}
