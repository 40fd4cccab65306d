#if canImport(Glibc)
import Glibc
#endif
import HID

/// The object that receives an application's life-cycle events.
///
/// Mark the delegate class `@main`, as Xcode's template does
/// (`@main class AppDelegate: UIResponder, UIApplicationDelegate`), or set
/// ``UIApplication/delegate`` and call ``UIApplicationMain(_:_:_:_:)`` from a
/// `main.swift`. UIKit makes a delegate named by class through
/// ``UIResponder/init(madeByUIKit:)``, which a responder subclass inherits.
@preconcurrency @MainActor
public protocol UIApplicationDelegate: AnyObject {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    /// The application is about to stop receiving events (it is leaving the front).
    func applicationWillResignActive(_ application: UIApplication)
    func applicationDidEnterBackground(_ application: UIApplication)
    func applicationWillEnterForeground(_ application: UIApplication)
    /// The application is in front and receives events.
    func applicationDidBecomeActive(_ application: UIApplication)
    /// The application is about to end.
    func applicationWillTerminate(_ application: UIApplication)
    /// Which configuration (delegate class, scene class) a connecting scene
    /// gets. By default the first of ``UIApplication/sceneManifest`` for the
    /// session's role, or Xcode's template's "Default Configuration".
    func application(
        _ application: UIApplication,
        configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration
    func application(_ application: UIApplication, didDiscardSceneSessions sceneSessions: Set<UISceneSession>)
}

extension UIApplicationDelegate {
    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    public func applicationWillResignActive(_ application: UIApplication) {}
    public func applicationDidEnterBackground(_ application: UIApplication) {}
    public func applicationWillEnterForeground(_ application: UIApplication) {}
    public func applicationDidBecomeActive(_ application: UIApplication) {}
    public func applicationWillTerminate(_ application: UIApplication) {}
    public func application(
        _ application: UIApplication,
        configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration {
        connectingSceneSession.configuration
    }
    public func application(_ application: UIApplication, didDiscardSceneSessions sceneSessions: Set<UISceneSession>) {}
}

extension UIApplicationDelegate where Self: UIResponder {
    /// The entry point of an application whose delegate class is marked
    /// `@main`: makes the delegate and runs ``UIApplicationMain(_:_:_:_:)``.
    public static func main() {
        let delegate = Self(madeByUIKit: UIResponder.MadeByUIKit())
        UIApplication.shared.delegate = delegate
        UIApplication.shared.retainedDelegate = delegate
        exit(UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, nil))
    }
}

/// The running application: it owns the main run loop, the input port, the
/// event queue and the windows, and sends each event to the window that
/// owns it.
///
/// How an event arrives:
/// 1. HID packets reach ``inputPort``. Its port source (source1) decodes
///    them and signals the event source (source0).
/// 2. The event source turns each HID event into an event and appends it
///    to the event queue, a FIFO. A digitizer frame waits there as the
///    touch samples it carries; presses and motion as `UIEvent`s.
/// 3. Touch moves reach views once per frame. A digitizer frame that only
///    moves fingers is held, and the move-only frames after it join it;
///    they are delivered as one touches event, whose touches take their
///    last samples and keep every sample as their coalesced touches
///    (`UIEvent.coalescedTouches(for:)`). Connected to an event server
///    with a display, they wait for the display's next refresh (its frame
///    signal, which the application asks for), as UIKit delivers touches
///    at the start of a frame; otherwise (tests, the synthesizer) a frame
///    is a run-loop turn, and the moves that arrived before the turn go
///    at its end. Any other event (a finger landing or lifting, a press,
///    a change of state) is never held: the held moves are delivered
///    first, then it.
/// 4. The queue is drained in order. A frame's turn fills the application's
///    one touches event, which UIKit also reuses for every frame: its
///    touches take the frame's state and new touches are hit-tested (see
///    `TouchRouting.swift`). Each event is then handed to ``sendEvent(_:)``.
///    An event enqueued while another is being delivered waits its turn:
///    the queue is never a stack.
@preconcurrency @MainActor
open class UIApplication: UIResponder {
    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// The application. There is one per process.
    public static let shared = UIApplication()

    /// Held weakly, as in UIKit: keep your own reference to it.
    public weak var delegate: (any UIApplicationDelegate)?
    /// The scene manifest an iOS application's Info.plist gives; see
    /// ``UIApplicationSceneManifest``.
    public var sceneManifest: UIApplicationSceneManifest?
    /// The application's window scene, once connected (after launch).
    var connectedWindowScene: UIWindowScene?
    /// The scenes connected: the application's one window scene, after launch.
    public var connectedScenes: Set<UIScene> {
        guard let connectedWindowScene else { return [] }
        return [connectedWindowScene]
    }
    /// The sessions of the connected scenes.
    public var openSessions: Set<UISceneSession> {
        var sessions = Set<UISceneSession>()
        for scene in connectedScenes { sessions.insert(scene.session) }
        return sessions
    }
    /// Whether the application can show several scenes at once: never here.
    public var supportsMultipleScenes: Bool { sceneManifest?.supportsMultipleScenes ?? false }
    /// The delegate UIKit made itself (from `@main` or a class name), which
    /// it keeps for the application's life, as `UIApplicationMain` does.
    var retainedDelegate: (any UIApplicationDelegate)?

    /// The main run loop, and with it the application's clock.
    @exclusivity(unchecked) public private(set) var runLoop = ApplicationRunLoop()
    /// Where HID events arrive.
    @exclusivity(unchecked) public private(set) var inputPort = InputPort()
    /// Problems the application survived, such as malformed input.
    public let diagnostics = DiagnosticLog()
    /// The direction of the application's interface, from its language (the
    /// process's `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` or `LANG`, as POSIX
    /// programs read them). Views whose ``UIView/semanticContentAttribute``
    /// is unspecified follow it. Tests set it to see a right-to-left layout.
    public internal(set) var userInterfaceLayoutDirection = LayoutDirectionDefaults.direction()
    /// Whether the application is in front and receiving events; the event
    /// server decides (see `ApplicationLifecycle.swift`).
    public internal(set) var applicationState: State = .active
    /// Set once the application was told to end; the run loop then stops.
    var isTerminating = false

    // The parts of the event path, read for every event. Constants, so that
    // using one costs no retain (a variable could be replaced during the
    // call); `resetForTesting()` empties them instead. They are made before
    // the application is, so what they ask of it goes through
    // `eventPathHost`, which is pointed at it as soon as it exists.
    let touchRouter: TouchRouter
    let gestureArena: GestureArena
    private let eventPathHost: ApplicationAsEventPathHost
    /// What the application shares with them: whether an event is being
    /// delivered (set as the queue drains), the trace handler.
    private let eventDelivery: EventDeliveryState
    private let translator = HIDEventTranslator()
    private var pressTranslator = HIDPressAndMotionTranslator()
    @exclusivity(unchecked) private var eventSource: RunLoopSource!
    /// Layout, display and commit at the end of each turn; the display clock.
    private var updateCycle: UpdateCycle!
    /// Where frames go when the application is connected to an event
    /// server: its display, at its refreshes.
    private(set) var screenFrames: ScreenFrames?
    /// Answers an inspector attached through the event server.
    private var serverInspection: ServerInspection?
    /// The edit menu's controller (`UIMenuController.shared`), a stand-in
    /// until text input brings an edit menu.
    private(set) var menuController = UIMenuController()
    /// Per view class: whether its `draw(_:)` draws (learnt at the first
    /// display of a view of that class; see `UIView+Drawing.swift`).
    var drawingClasses: [ObjectIdentifier: Bool] = [:]
    /// The bitmaps views draw into, kept to be drawn into again.
    let backingStores = BackingStorePool()
    // Touched for every event, only from the main actor and never through
    // overlapping inout accesses: dynamic exclusivity checks would only cost time.
    @exclusivity(unchecked) private var pendingHIDEvents: [HIDEvent] = []
    /// Which of `pendingHIDEvents` came from the event server, with the
    /// number each is acknowledged under and when the server read it, in order.
    @exclusivity(unchecked) private var pendingAcknowledgements: [(eventIndex: Int, sequence: UInt64, readTime: Double)] = []
    /// When the event server read the event being delivered now (seconds of
    /// `CLOCK_MONOTONIC`, the clock every process shares; for moves
    /// delivered together, the earliest of them); nil while an
    /// event from inside this process is delivered, or none. For the latency
    /// benchmark, which measures from there to the touch method.
    @exclusivity(unchecked) package private(set) var eventServerReadTime: TimeInterval?
    /// Whether the event just delivered reached a responder: worked out
    /// only while connected to the event server, which asks.
    @exclusivity(unchecked) private var lastEventWasHandled = false
    @exclusivity(unchecked) private var eventQueue: [QueuedEvent] = []
    /// The held moves (step 3): where they wait in the queue (its last
    /// entry, not yet delivered) and how many frames they coalesce.
    @exclusivity(unchecked) private var heldMoves: (queueIndex: Int, frameCount: Int)?
    /// A frame signal that came ahead of its start (with a finger down
    /// the server sends it as soon as it is asked), kept until then, and
    /// the timer that starts its frame.
    @exclusivity(unchecked) private var signalAwaitingStart: ServerMessage.FrameSignal?
    @exclusivity(unchecked) private var frameStartTimer: RunLoopTimer?
    /// Set at launch by `OPENUIKIT_UNBUFFERED_TOUCHES=1`: no move is held
    /// or coalesced, every frame is delivered as it arrives.
    @exclusivity(unchecked) var deliversEveryTouchFrame = false
    /// The event server's events the held moves stand for, acknowledged
    /// when the moves are delivered: the server hears that an event was
    /// handled once it was, as Android's consumer acknowledges a batch of
    /// moves when the batch is consumed.
    @exclusivity(unchecked) private var heldAcknowledgements: [(sequence: UInt64, readTime: Double)] = []
    /// The samples of the frames in the queue, one range per frame: one
    /// buffer, emptied when the queue is, so frames cost no allocation.
    @exclusivity(unchecked) private var queuedTouchSamples: [TouchSample] = []
    /// The touches event, filled in for each frame as it is delivered.
    let touchesEvent: UIEvent
    @exclusivity(unchecked) private var eventQueueHead = 0
    @exclusivity(unchecked) private var windowRecords: [WindowRecord] = [] {
        didSet { windowOrder = nil }
    }
    /// The visible windows front to back, kept until a window is made,
    /// shown, hidden or moved to another level. Unretained, like the
    /// records: the application does not keep windows alive.
    @exclusivity(unchecked) private var windowOrder: [WindowRecord]? {
        didSet { if windowOrder == nil { windowLayerOrder = nil } }
    }
    /// Their layers, the lowest first, kept as long: the end of every
    /// run-loop turn hands them to the screen's compositor, and a list made
    /// anew each time was an allocation in every turn (three or four a
    /// frame for a dragged view).
    @exclusivity(unchecked) private var windowLayerOrder: [CALayer]?
    private var showCount = 0

    override init() {
        let host = ApplicationAsEventPathHost()
        let delivery = EventDeliveryState()
        let event = UIEvent(type: .touches, timestamp: 0)
        let router = TouchRouter(host: host, delivery: delivery, touchesEvent: event)
        eventPathHost = host
        eventDelivery = delivery
        touchesEvent = event
        touchRouter = router
        gestureArena = GestureArena(host: host, delivery: delivery, views: router)
        super.init()
        host.applicationReference = UnretainedReference(self)
        delivery.now = { [unowned self] in runLoop.clock.now }
        connectEventPath()
    }

    /// Not for the application: there is one, ``shared``.
    @available(*, unavailable)
    public required init(madeByUIKit _: MadeByUIKit) {
        fatalError("UIKit makes no application from a class")
    }

    /// The application's delegate when it is a responder of its own (not a
    /// view, view controller or the application); otherwise the chain ends here.
    open override var next: UIResponder? {
        guard let responder = delegate as? UIResponder else { return nil }
        if responder is UIView || responder is UIViewController || responder is UIApplication { return nil }
        return responder
    }

    /// Puts the application back as it was at launch: no windows, no
    /// touches, no queued events, a new run loop on system time, a new input
    /// port, no delegate and an empty diagnostic log. For tests, which each
    /// want a clean application.
    public func resetForTesting() {
        delegate = nil
        retainedDelegate = nil
        sceneManifest = nil
        connectedWindowScene = nil
        windowRecords = []
        keyWindowReference = nil
        showCount = 0
        pendingHIDEvents = []
        pendingAcknowledgements = []
        applicationState = .active
        isTerminating = false
        interactionIgnoringDepth = 0
        eventQueue = []
        heldMoves = nil
        heldAcknowledgements = []
        frameStartTimer?.invalidate()
        frameStartTimer = nil
        signalAwaitingStart = nil
        deliversEveryTouchFrame = false
        queuedTouchSamples = []
        eventQueueHead = 0
        eventDelivery.isDeliveringEvent = false
        serverInspection?.stop()
        serverInspection = nil
        traceHandler = nil
        didCommit = nil
        didHandleEvents = nil
        eventDelivery.currentEventID = 0
        // Touches still on the screen and the recognizers following them
        // refer to one another; they let go so that their views can go away.
        for touch in touchRouter.touchesOnScreen { touch.retire() }
        touchesEvent.touchesInOrder = []
        touchesEvent.timestamp = 0
        gestureArena.reset()
        touchRouter.reset()
        translator.reset()
        pressTranslator = HIDPressAndMotionTranslator()
        runLoop = ApplicationRunLoop()
        inputPort = InputPort()
        screenFrames = nil
        diagnostics.removeAll()
        userInterfaceLayoutDirection = LayoutDirectionDefaults.direction()
        TransactionState.current.reset()
        AnimationEngine.current.reset()
        ViewAnimations.current.reset()
        DisplayLinkRegistry.current.reset()
        GraphicsContextStack.current.removeAll()
        backingStores.removeAll()
        menuController = UIMenuController()
        UIScreen.main.bounds = CGRect(x: 0, y: 0, width: 390, height: 844)
        UIScreen.main.scale = 3
        UIScreen.main.maximumFramesPerSecond = 60
        UIScreen.main.safeAreaInsets = .zero
        safeAreasInUse = false
        connectEventPath()
    }

    private func connectEventPath() {
        inputPort.onError = { [unowned self] in diagnostics.report($0) }
        runLoop.add(RunLoopPortSource(port: inputPort) { [unowned self] in receiveHIDEvents() })
        let source = RunLoopSource { [unowned self] in handleHIDEvents() }
        eventSource = source
        runLoop.add(source)
        updateCycle = UpdateCycle(application: self)
        // Animations run on the run loop's clock (a test's manual clock).
        AnimationEngine.current.clock = { [unowned self] in runLoop.clock.now }
        // A transition's picture of the old look is taken at the screen's scale.
        AnimationEngine.current.screenScale = { UIScreen.main.scale }
    }

    // MARK: The event path

    /// Source1: reads what arrived at the input port.
    private func receiveHIDEvents() {
        let port = inputPort
        while let result = port.nextEvent() {
            switch result {
            case .success(let event):
                if eventDelivery.isTracing {
                    eventDelivery.trace(.hidEventReceived(Self.traceKind(of: event), serverReadTime: nil, serverSendTime: nil))
                }
                pendingHIDEvents.append(event)
            case .failure(let error): diagnostics.report(Diagnostic(.malformedHIDPacket, error.description))
            }
        }
        if let server = port.server, server.hasItems { receiveFromServer(server) }
        if !pendingHIDEvents.isEmpty { eventSource.signal() }
    }

    /// Takes what the event server sent, in order: events join the pending
    /// ones, to be acknowledged once delivered; a change of state first
    /// delivers the events that came before it.
    private func receiveFromServer(_ server: EventServerConnection) {
        while let item = server.nextItem() {
            switch item {
            case .event(let event, let sequence, let readTime, let sendTime):
                if eventDelivery.isTracing {
                    eventDelivery.trace(.hidEventReceived(Self.traceKind(of: event), serverReadTime: readTime, serverSendTime: sendTime))
                }
                pendingAcknowledgements.append((pendingHIDEvents.count, sequence, readTime))
                pendingHIDEvents.append(event)
            case .malformedEvent(let error, let sequence):
                diagnostics.report(Diagnostic(.malformedHIDPacket, "from the event server: \(error)"))
                server.acknowledge(sequence, handled: false)
            case .state(let state):
                handleHIDEvents()
                deliverHeldMoves()
                serverDidChange(state)
            case .frameSignal(let signal):
                let wait = signal.startTime - monotonicSeconds()
                if wait > 0 { awaitStart(of: signal, for: wait) } else { startFrame(for: signal) }
            case .bufferReleased(let identifier):
                screenFrames?.bufferReleased(identifier)
            case .framePresented(let presentation):
                screenFrames?.framePresented(presentation)
            case .frameDiscarded(let identifier):
                screenFrames?.frameDiscarded(identifier)
            case .inspectorCommand(let command):
                let inspection = serverInspection ?? ServerInspection(connection: server)
                serverInspection = inspection
                inspection.handle(command, screenFrames: screenFrames)
            case .disconnected(let reason):
                handleHIDEvents()
                deliverHeldMoves()
                diagnostics.report(Diagnostic(.inputPort, reason))
                // No finger on the server's screen will lift now: what is
                // down is cancelled, as when the system takes touches away,
                // before the application hears that it terminates.
                touchRouter.cancelAllTouches()
                cancelAllPresses()
                terminate()
            }
        }
    }

    /// The frame `signal` is for starts: touches that came before it are
    /// delivered before its display links fire, as UIKit's update loop
    /// does (the moves held for it among them), and the turn's end draws.
    private func startFrame(for signal: ServerMessage.FrameSignal) {
        handleHIDEvents()
        deliverHeldMoves()
        screenFrames?.frameSignalArrived(signal)
    }

    /// Keeps a signal that came ahead of its start, and starts its frame
    /// `seconds` from now by the run loop's own timer, after reading what
    /// came meanwhile: the touches read until the start are in the frame.
    private func awaitStart(of signal: ServerMessage.FrameSignal, for seconds: Double) {
        signalAwaitingStart = signal
        if let frameStartTimer {
            runLoop.reschedule(frameStartTimer, after: seconds)
        } else {
            frameStartTimer = runLoop.schedule(after: seconds) { [unowned self] _ in
                guard let signal = signalAwaitingStart else { return }
                signalAwaitingStart = nil
                _ = inputPort.receiveWaitingMessages()
                receiveHIDEvents()
                startFrame(for: signal)
            }
        }
    }

    /// Source0: turns HID events into UIEvents, queues them, and drains the queue.
    private func handleHIDEvents() {
        var events: [HIDEvent] = []
        swap(&events, &pendingHIDEvents)
        var acknowledgements: [(eventIndex: Int, sequence: UInt64, readTime: Double)] = []
        if !pendingAcknowledgements.isEmpty { swap(&acknowledgements, &pendingAcknowledgements) }
        defer {
            // Give the emptied storage back for the next frame, unless new events came in meanwhile.
            if pendingHIDEvents.isEmpty {
                events.removeAllKeepingStorage()
                swap(&events, &pendingHIDEvents)
            }
            if pendingAcknowledgements.isEmpty && acknowledgements.capacity > 0 {
                acknowledgements.removeAllKeepingStorage()
                swap(&acknowledgements, &pendingAcknowledgements)
            }
        }
        var nextAcknowledgement = 0
        for index in events.indices {
            let hidEvent = events[index]
            let acknowledges = nextAcknowledgement < acknowledgements.count && acknowledgements[nextAcknowledgement].eventIndex == index
            eventServerReadTime = acknowledges ? acknowledgements[nextAcknowledgement].readTime : nil
            lastEventWasHandled = false
            switch hidEvent {
            case .digitizer(let frame):
                let start = queuedTouchSamples.count
                if translator.translate(frame, into: &queuedTouchSamples, diagnostics: diagnostics) {
                    if !deliversEveryTouchFrame && movesOnly(from: start) {
                        hold(movesFrom: start, timestamp: frame.timestamp)
                        if eventDelivery.isTracing, let held = heldMoves { eventDelivery.trace(.touchMovesHeld(frameCount: held.frameCount)) }
                        if acknowledges {
                            // Acknowledged when the moves are delivered.
                            let acknowledgement = acknowledgements[nextAcknowledgement]
                            heldAcknowledgements.append((acknowledgement.sequence, acknowledgement.readTime))
                            nextAcknowledgement += 1
                            inputPort.recycle(hidEvent)
                            continue
                        }
                    } else {
                        eventQueue.append(.touches(samples: start..<queuedTouchSamples.count, timestamp: frame.timestamp))
                        if eventDelivery.isTracing { traceQueued(.touches) }
                        drainEventQueue()
                    }
                }
                inputPort.recycle(hidEvent)
            case .button(let button):
                if let event = pressTranslator.translate(button, diagnostics: diagnostics) { enqueue(event) }
            case .motion(let motion):
                if let event = pressTranslator.translate(motion, diagnostics: diagnostics) { enqueue(event) }
            }
            if acknowledges {
                inputPort.server?.acknowledge(acknowledgements[nextAcknowledgement].sequence, handled: lastEventWasHandled)
                screenFrames?.eventDelivered(readTime: acknowledgements[nextAcknowledgement].readTime)
                nextAcknowledgement += 1
            }
        }
        eventServerReadTime = nil
        // Step 3: held moves wait for the display's refresh, or go at the
        // end of the turn without one.
        if heldMoves != nil {
            if let screenFrames { screenFrames.touchesAwaitRefresh() } else { deliverHeldMoves() }
        }
        didHandleEvents?()
    }

    private static func traceKind(of event: HIDEvent) -> TraceRecord.HIDEventKind {
        switch event {
        case .digitizer: .digitizer
        case .button: .button
        case .motion: .motion
        }
    }

    private func traceQueued(_ type: UIEvent.EventType) {
        eventDelivery.trace(.eventQueued(type, queueLength: eventQueue.count - eventQueueHead))
    }

    /// Whether the touch samples from `start` to the end of the queue's
    /// samples (one frame's) only move fingers or keep them still.
    private func movesOnly(from start: Int) -> Bool {
        for index in start..<queuedTouchSamples.count {
            let phase = queuedTouchSamples[index].phase
            if phase != .moved && phase != .stationary { return false }
        }
        return true
    }

    /// Step 3: the frame of moves whose samples run from `start` to the end
    /// of the queue's samples joins the held moves, or starts them.
    private func hold(movesFrom start: Int, timestamp: TimeInterval) {
        let end = queuedTouchSamples.count
        if let held = heldMoves, case .touches(let samples, _) = eventQueue[held.queueIndex], samples.upperBound == start {
            eventQueue[held.queueIndex] = .touches(samples: samples.lowerBound..<end, timestamp: timestamp)
            heldMoves = (held.queueIndex, held.frameCount + 1)
        } else {
            // Held moves are always the queue's last entry: whatever is
            // queued after them delivers them first.
            heldMoves = (eventQueue.count, 1)
            eventQueue.append(.touches(samples: start..<end, timestamp: timestamp))
        }
    }

    /// Delivers the held moves now, if there are any (with whatever waits
    /// in the queue before them).
    private func deliverHeldMoves() {
        if heldMoves != nil { drainEventQueue() }
    }

    /// Whether an event is being delivered now.
    var isDeliveringEvent: Bool { eventDelivery.isDeliveringEvent }

    /// Called with each step of event handling worth seeing: touches
    /// delivered to views, gesture recognizers changing state. For tracing
    /// tools; nil (the default) costs nothing.
    public final var traceHandler: (@MainActor (TraceRecord) -> Void)? {
        get { eventDelivery.traceHandler }
        set {
            eventDelivery.traceHandler = newValue
            touchesEvent.tracing = newValue == nil ? nil : eventDelivery
        }
    }

    /// Called at the end of each run-loop turn that committed a change,
    /// after the commit: for the inspector, which shows each frame.
    package var didCommit: (@MainActor () -> Void)?
    /// Called each time the event source has delivered the HID events that
    /// had arrived: for the inspector, which sends their trace then.
    package var didHandleEvents: (@MainActor () -> Void)?

    /// The delivery state, when a trace handler is set: for the steps
    /// outside the event path proper (controls, the update cycle, frames).
    var tracing: EventDeliveryState? { eventDelivery.isTracing ? eventDelivery : nil }

    private enum QueuedEvent {
        /// A digitizer frame: its samples are `queuedTouchSamples[samples]`.
        case touches(samples: Range<Int>, timestamp: TimeInterval)
        case other(UIEvent)
    }

    /// Appends an event to the queue and delivers queued events in order,
    /// unless a delivery is already under way (then this one waits its turn).
    func enqueue(_ event: UIEvent) {
        eventQueue.append(.other(event))
        if eventDelivery.isTracing { traceQueued(event.type) }
        drainEventQueue()
    }

    /// `view` left its window: the touches it tracks and the presses bound
    /// to responders inside it are cancelled, as the next events in the
    /// queue (TouchRouting step 8, PressRouting step 7).
    func viewDidLeaveWindow(_ view: UIView) {
        touchRouter.viewDidLeaveWindow(view)
        if let event = pressTranslator.cancelPresses(at: runLoop.clock.now, where: { PressRouting.isBound($0, inside: view) }) {
            enqueue(event)
        }
    }

    /// Cancels every press held, as the application leaves the front.
    func cancelAllPresses() {
        if let event = pressTranslator.cancelPresses(at: runLoop.clock.now, where: { _ in true }) { enqueue(event) }
    }

    /// Appends a frame of touch samples made by the application itself.
    func enqueueTouchFrame(_ samples: [TouchSample], timestamp: TimeInterval) {
        let start = queuedTouchSamples.count
        queuedTouchSamples.append(contentsOf: samples)
        eventQueue.append(.touches(samples: start..<queuedTouchSamples.count, timestamp: timestamp))
        if eventDelivery.isTracing { traceQueued(.touches) }
        drainEventQueue()
    }

    private func drainEventQueue() {
        guard !eventDelivery.isDeliveringEvent else { return }
        eventDelivery.isDeliveringEvent = true
        while eventQueueHead < eventQueue.count {
            let index = eventQueueHead
            let next = eventQueue[index]
            eventQueueHead += 1
            switch next {
            case .touches(let samples, let timestamp):
                if let held = heldMoves, held.queueIndex == index {
                    dispatchHeldMoves(samples, at: timestamp, frameCount: held.frameCount)
                } else {
                    dispatchTouches(samples, at: timestamp)
                }
            case .other(let event): dispatch(event)
            }
        }
        eventQueue.removeAllKeepingStorage()
        queuedTouchSamples.removeAllKeepingStorage()
        eventQueueHead = 0
        eventDelivery.isDeliveringEvent = false
    }

    /// Step 3's held moves: one frame's go as any frame does; several
    /// frames' as one event whose touches keep every sample. The server's
    /// events among them are acknowledged now, with whether a view took them.
    private func dispatchHeldMoves(_ samples: Range<Int>, at timestamp: TimeInterval, frameCount: Int) {
        heldMoves = nil
        let outerReadTime = eventServerReadTime, outerHandled = lastEventWasHandled
        lastEventWasHandled = false
        if !heldAcknowledgements.isEmpty { eventServerReadTime = heldAcknowledgements[0].readTime }
        dispatchTouches(samples, at: timestamp, coalescing: frameCount > 1)
        if !heldAcknowledgements.isEmpty {
            for acknowledgement in heldAcknowledgements {
                inputPort.server?.acknowledge(acknowledgement.sequence, handled: lastEventWasHandled)
                screenFrames?.eventDelivered(readTime: acknowledgement.readTime)
            }
            heldAcknowledgements.removeAll(keepingCapacity: true)
        }
        eventServerReadTime = outerReadTime
        lastEventWasHandled = outerHandled
    }

    private func dispatchTouches(_ samples: Range<Int>, at timestamp: TimeInterval, coalescing: Bool = false) {
        let event = touchesEvent
        event.timestamp = timestamp
        if eventDelivery.isTracing { eventDelivery.beginTracedDelivery(of: .touches, sampleCount: samples.count) }
        if coalescing {
            touchRouter.prepareCoalesced(event, from: queuedTouchSamples, samples)
        } else {
            touchRouter.prepare(event, from: queuedTouchSamples, samples)
        }
        sendEvent(event)
        if inputPort.server != nil && !lastEventWasHandled {
            lastEventWasHandled = event.touchesInOrder.anySatisfy { $0.view != nil }
        }
        touchRouter.finish(event)
        gestureArena.settle()
    }

    private func dispatch(_ event: UIEvent) {
        if eventDelivery.isTracing {
            event.tracing = eventDelivery
            eventDelivery.beginTracedDelivery(of: event.type, sampleCount: 0)
        }
        if let presses = event as? UIPressesEvent { PressRouting.prepare(presses, in: self) }
        if inputPort.server != nil && !lastEventWasHandled {
            lastEventWasHandled = !PressRouting.windows(for: event, in: self).isEmpty
        }
        sendEvent(event)
        gestureArena.settle()
    }

    /// Sends an event to the windows that own its touches, each window once;
    /// a press or motion to its window (see `PressRouting.swift`). Override
    /// to watch every event the application delivers; call super.
    open func sendEvent(_ event: UIEvent) {
        guard event.type == .touches else {
            for window in PressRouting.windows(for: event, in: self) { window.sendEvent(event) }
            return
        }
        // Almost always one window: the others are collected only when there are any.
        var first: UIWindow?
        var others: [UIWindow] = []
        for touch in event.touchesInOrder {
            guard let window = touch.window else { continue }
            if first == nil {
                first = window
            } else if window !== first && !others.containsIdentical(window) {
                others.append(window)
            }
        }
        first?.sendEvent(event)
        for window in others { window.sendEvent(event) }
    }

    // MARK: Ignoring touches

    /// Unmatched ``beginIgnoringInteractionEvents()`` calls.
    private var interactionIgnoringDepth = 0

    /// Whether touches and presses that begin now are ignored: between
    /// ``beginIgnoringInteractionEvents()`` and the matching
    /// ``endIgnoringInteractionEvents()``.
    public var isIgnoringInteractionEvents: Bool { interactionIgnoringDepth > 0 }

    /// Ignores touches and presses until the matching
    /// ``endIgnoringInteractionEvents()`` (calls nest). A touch or press
    /// that begins meanwhile belongs to no window and is never delivered,
    /// not even its later phases after the end; touches and presses already
    /// down go on. UIKit does this itself while a view controller's
    /// presentation or dismissal animates without a gesture driving it
    /// (`UIPresentationController` calls it, Apple bug report 41217893), and
    /// so does this implementation. Presses count as interaction events as
    /// Apple's `isUserInteractionEnabled` counts them ("touch, press,
    /// keyboard, and focus events"); motion events (shake) are not ignored.
    public func beginIgnoringInteractionEvents() {
        interactionIgnoringDepth += 1
    }

    /// Ends one ``beginIgnoringInteractionEvents()``; an unmatched call does nothing.
    public func endIgnoringInteractionEvents() {
        interactionIgnoringDepth = max(0, interactionIgnoringDepth - 1)
    }

    // MARK: Windows

    /// The application does not keep windows alive (keep your own reference,
    /// as in UIKit). The references are not weak, though: a weak reference
    /// makes every retain of a window slow, and windows are retained for
    /// every touch. A window removes itself as it goes away.
    private struct WindowRecord {
        private let reference: UnretainedReference<UIWindow>
        var window: UIWindow? { reference.object }
        var showOrder: Int

        /// Whether the record is `window`'s; the window is not read, so
        /// this may be asked while it goes away.
        func isRecord(of window: UIWindow) -> Bool { reference.refers(to: window) }

        init(window: UIWindow, showOrder: Int) {
            reference = UnretainedReference(window)
            self.showOrder = showOrder
        }
    }

    private var keyWindowReference: UnretainedReference<UIWindow>?

    /// Whether any screen or view controller has given a safe area yet:
    /// until then every view's is zero, and geometry changes skip the safe
    /// area's bookkeeping (`SafeArea.swift`).
    var safeAreasInUse = false

    /// The application's windows that still exist, in the order they were made.
    public var windows: [UIWindow] {
        Self.existingWindows(of: windowRecords)
    }

    /// The window that receives keyboard and other non-touch events.
    public var keyWindow: UIWindow? { keyWindowReference?.object }

    func register(_ window: UIWindow) {
        windowRecords.append(WindowRecord(window: window, showOrder: 0))
    }

    /// Called by a window as it goes away.
    func unregister(_ window: UIWindow) {
        windowRecords.removeEvery { $0.isRecord(of: window) }
        if keyWindowReference?.refers(to: window) == true { keyWindowReference = nil }
        touchRouter.forgetTaps(in: window)
    }

    /// Called by a window as it is hidden: a tap in it is not continued by
    /// the next. (It stays the key window, if it was.)
    func windowDidBecomeHidden(_ window: UIWindow) {
        touchRouter.forgetTaps(in: window)
    }

    /// The fingers on the touch screen, as the input path knows them, with
    /// where each last was.
    var touchScreenFingersDown: [(identifier: UInt32, location: CGPoint)] { translator.fingersDown }

    func windowDidBecomeVisible(_ window: UIWindow) {
        showCount += 1
        if let index = windowRecords.firstPosition({ $0.window === window }) {
            windowRecords[index].showOrder = showCount
        }
    }

    func makeKey(_ window: UIWindow) {
        guard keyWindowReference?.refers(to: window) != true else { return }
        let previous = keyWindow
        keyWindowReference = UnretainedReference(window)
        previous?.resignKey()
        window.becomeKey()
    }

    /// The first non-nil result of `body` for the visible windows in the
    /// order touches look at them: the highest `windowLevel` first, and among
    /// equal levels the most recently shown. Asked for every touch that
    /// lands; with one window (the usual case) it makes no array of them.
    func firstResultFrontToBack<Result>(_ body: (UIWindow) -> Result?) -> Result? {
        let order = windowRecordsFrontToBack()
        if order.count == 1, let window = order[0].window { return body(window) }
        // Held strongly while asked: `body` may run code that lets a window go.
        for window in Self.existingWindows(of: order) {
            if let result = body(window) { return result }
        }
        return nil
    }

    private func windowRecordsFrontToBack() -> [WindowRecord] {
        if let windowOrder { return windowOrder }
        let order = windowRecords
            .filtered { $0.window.map { !$0.isHidden } ?? false }
            .sorted { ($0.window!.windowLevel.rawValue, $0.showOrder) > ($1.window!.windowLevel.rawValue, $1.showOrder) }
        windowOrder = order
        return order
    }

    private static func existingWindows(of records: [WindowRecord]) -> [UIWindow] {
        var windows: [UIWindow] = []
        windows.reserveCapacity(records.count)
        for index in records.indices {
            if let window = records[index].window { windows.append(window) }
        }
        return windows
    }

    /// The layers of the visible windows as the screen stacks them, the
    /// lowest first.
    func windowLayersBackToFront() -> [CALayer] {
        if let windowLayerOrder { return windowLayerOrder }
        let order = windowRecordsFrontToBack()
        var layers: [CALayer] = []
        layers.reserveCapacity(order.count)
        for index in order.indices.reversed() {
            if let window = order[index].window { layers.append(window.layer) }
        }
        windowLayerOrder = layers
        return layers
    }

    /// For each frame the event server presented that showed events: the
    /// seconds from the server's read of its oldest event to the refresh
    /// that presented it (touch to photon). For benchmarks.
    @_spi(Benchmarks) public var touchToPhotonLatencies: [Double] {
        screenFrames?.touchToPhotonLatencies ?? []
    }

    /// The display refreshes that presented this application's frames since
    /// recording started, in order. For benchmarks.
    @_spi(Benchmarks) public var presentedRefreshes: [UInt64] {
        screenFrames?.presentedRefreshes ?? []
    }

    /// For each frame signal since recording started: how long before its
    /// refresh it reached this application, in seconds. For benchmarks.
    @_spi(Benchmarks) public var frameSignalLeads: [Double] {
        screenFrames?.signalLeads ?? []
    }

    /// Each frame drawn for a frame signal since recording started: when
    /// its steps happened and which refresh showed it. For benchmarks.
    @_spi(Benchmarks) public var frameRecords: [FrameRecord] {
        screenFrames?.frameRecords ?? []
    }

    /// The refreshes this application was signalled for since recording
    /// started, in order. For benchmarks.
    @_spi(Benchmarks) public var signalledRefreshes: [UInt64] {
        screenFrames?.signalledRefreshes ?? []
    }

    /// Why refreshes between the first and the last that presented this
    /// application's frames since recording started showed none of them.
    /// For benchmarks.
    @_spi(Benchmarks) public var refreshesWithoutANewFrame: RefreshesWithoutANewFrame {
        RefreshesWithoutANewFrame(presented: presentedRefreshes, signalled: signalledRefreshes, frames: frameRecords)
    }

    /// Starts (again) recording ``touchToPhotonLatencies``,
    /// ``presentedRefreshes``, ``frameSignalLeads``, ``frameRecords`` and
    /// ``signalledRefreshes``, from none.
    @_spi(Benchmarks) public func startRecordingTouchToPhoton() {
        screenFrames?.resetTouchToPhotonLatencies()
        screenFrames?.recordsTouchToPhoton = true
    }

    /// Starts sending frames to the event server `server`.
    func startScreenFrames(for server: EventServerConnection) {
        let welcome = server.welcome
        do {
            screenFrames = try ScreenFrames(
                connection: server, screenWidth: welcome.screenWidth, screenHeight: welcome.screenHeight, scale: welcome.screenScale)
        } catch {
            report(Diagnostic(.inputPort, "no frames for the event server's display: \(error)"))
        }
    }

    /// A window was shown, hidden or moved to another level.
    func windowOrderDidChange() {
        windowOrder = nil
    }
}

extension UIApplication: EventPathHost {
    func report(_ diagnostic: Diagnostic) {
        diagnostics.report(diagnostic)
    }

    func frontmostHit(at screenLocation: CGPoint, with event: UIEvent) -> (window: UIWindow, view: UIView)? {
        if interactionIgnoringDepth > 0 { return nil }
        return firstResultFrontToBack { window -> (window: UIWindow, view: UIView)? in
            let point = window.layer.convertFromSuperlayer(screenLocation)
            let hit = event.tracing == nil ? window.hitTest(point, with: event) : eventDelivery.tracedHitTest(window, at: point, with: event)
            guard let view = hit else { return nil }
            return (window, view)
        }
    }

    func enqueueTouchFrameNow(_ samples: [TouchSample]) {
        enqueueTouchFrame(samples, timestamp: runLoop.clock.now)
    }
}

/// The application as the parts of its event path see it, for the time
/// between their making and its own (see `UIApplication.init()`): it
/// passes every question on to the application. Not retained: the
/// application owns it.
@MainActor
private final class ApplicationAsEventPathHost: EventPathHost {
    var applicationReference: UnretainedReference<UIApplication>?
    private var application: UIApplication { applicationReference!.object }

    func report(_ diagnostic: Diagnostic) { application.report(diagnostic) }
    func frontmostHit(at screenLocation: CGPoint, with event: UIEvent) -> (window: UIWindow, view: UIView)? {
        application.frontmostHit(at: screenLocation, with: event)
    }
    func enqueueTouchFrameNow(_ samples: [TouchSample]) { application.enqueueTouchFrameNow(samples) }
}
