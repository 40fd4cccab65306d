import CX11
import HID
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A window on an X display that shows the screen's frames, and whose
/// pointer, keys and touches are an input source of the server.
///
/// The window is the screen in points times the window scale (1 by
/// default: a 390 × 844 point screen is a 390 × 844 window, whatever its
/// scale), scaled down to fit a smaller X screen when no scale is given.
/// Frames arrive at the screen's scale and are averaged down to it
/// (``FrameConverter``).
///
/// **Pixels' way.** `show` makes the frame's scrolls in the window's own
/// copy of its picture (the *shadow*, in the visual's pixel format) and in
/// the window itself (`XCopyArea`), where the window's scale lets a scroll
/// move whole window pixels, then converts the damaged rectangles of the
/// frame (with what the scrolls did not give) into the shadow, so the
/// frame's pixels have been read when it returns. The shadow's changes then
/// reach the X server:
/// - with MIT-SHM, through one shared-memory image: the changed rows are
///   copied into it and `XShmPutImage` asks for a completion event. Until
///   every completion is back the X server may still be reading the image,
///   so nothing is written into it; changes wait in the shadow and are sent
///   when the last completion arrives (``handleEvents()``). A second image
///   would let a frame go out without waiting, but each frame's damage
///   would then have to be copied into both images; at a 60 or 120 Hz
///   frame clock a local X server has finished long before the next frame,
///   so the wait almost never happens and one image is the simpler right.
///   The server's loop never blocks on the X server.
/// - without it (no MIT-SHM, or a display that is not on this machine,
///   where `XShmAttach` fails), with plain `XPutImage` from the shadow,
///   which copies the pixels into the request at once.
/// Exposure repaints from the shadow, so it needs no frame.
///
/// **When the X connection dies** (the X server killed, the network gone),
/// Xlib would normally exit the process from its I/O error handler. Here an
/// exit handler (`XSetIOErrorExitHandler`, libX11 1.7+) marks the
/// connection broken and returns instead; from then on the display is not
/// touched again (not even to close it, since Xlib's state for it is
/// gone), and the next ``handleEvents()`` reports the window closed with a
/// diagnostic, so the server stops cleanly and tells its applications.
/// Protocol errors (`BadAccess` from `XShmAttach` on a remote display, …)
/// are recorded by an error handler instead of exiting, and reported.
public final class X11Display: DisplayOutput {
    public let name: String
    public let fileDescriptor: Int32
    /// The screen whose frames it shows.
    public let screen: Screen
    /// Window pixels per screen point.
    public let windowScale: Double
    /// The window's size in X pixels: the screen in points times ``windowScale``.
    public let windowWidth: Int
    public let windowHeight: Int
    /// How the window's pixels are stored (the visual's masks, the image's depth and byte order).
    public let pixelFormat: PixelFormat
    /// Whether pictures go through MIT-SHM (otherwise plain `XPutImage`).
    public let usesSharedMemory: Bool

    let display: OpaquePointer
    let window: Window
    private let graphicsContext: GC
    private let connection: ConnectionState
    private let displayName: String
    private let wmProtocols: Atom
    private let wmDeleteWindow: Atom
    private let netWMName: Atom
    private let utf8String: Atom

    /// The picture the window should show, in the window's pixel format.
    private let shadow: UnsafeMutableRawPointer
    private let shadowStride: Int
    /// An XImage over ``shadow`` for plain `XPutImage`; nil with MIT-SHM.
    private let shadowImage: UnsafeMutablePointer<XImage>?
    private var sharedImage: SharedImage?
    /// Window rectangles changed in the shadow and not yet sent.
    private var dirty: [ServerMessage.PixelRect] = []
    private var converter: FrameConverter?

    private var input: WindowInputTranslator
    private var timeMapper = XServerTimeMapper()
    private let touches: XInput2Touches?
    private var pendingInput: [HIDEvent] = []
    private var pendingDiagnostics: [String] = []
    private var isClosed = false
    private var reportedBroken = false

    /// Opens a window for `screen` on the X display `displayName` (nil:
    /// `DISPLAY`), at `windowScale` window pixels per point (nil: 1, or less
    /// to fit the X screen, which ``notes`` then says).
    public init(screen: Screen, windowScale: Double? = nil, displayName: String? = nil, identifiers: ContactIdentifiers = ContactIdentifiers()) throws(DisplayError) {
        if let windowScale, !(windowScale.isFinite && windowScale > 0 && windowScale <= 16) {
            throw .invalidWindowScale(windowScale)
        }
        X11ErrorTrap.install()
        let requestedName = displayName ?? String(cString: XDisplayName(nil))
        guard let display = XOpenDisplay(displayName) else {
            throw .cannotOpenXDisplay(name: requestedName)
        }
        self.display = display
        self.displayName = String(cString: XDisplayString(display))
        var notes: [String] = []

        let screenNumber = XDefaultScreen(display)
        let root = XRootWindow(display, screenNumber)
        var visualInfo = XVisualInfo()
        guard XMatchVisualInfo(display, screenNumber, 24, TrueColor, &visualInfo) != 0
            || XMatchVisualInfo(display, screenNumber, 32, TrueColor, &visualInfo) != 0 else {
            XCloseDisplay(display)
            throw .unsupportedXVisual(name: requestedName, reason: "it has no TrueColor visual of depth 24 or 32")
        }

        // The window's size: the screen in points, times the scale.
        let desktopWidth = Double(XDisplayWidth(display, screenNumber)), desktopHeight = Double(XDisplayHeight(display, screenNumber))
        var scale = windowScale ?? 1
        if windowScale == nil, screen.width > desktopWidth || screen.height > desktopHeight {
            scale = (min(desktopWidth / screen.width, desktopHeight / screen.height) * 100).rounded(.down) / 100
            notes.append("the \(Int(screen.width))x\(Int(screen.height))-point screen does not fit the X screen's \(Int(desktopWidth))x\(Int(desktopHeight)) pixels: the window is scaled by \(scale) (--window-scale sets it)")
        }
        self.screen = screen
        self.windowScale = scale
        windowWidth = max(1, Int((screen.width * scale).rounded()))
        windowHeight = max(1, Int((screen.height * scale).rounded()))

        // The window, in the visual found (with its own colour map, since it
        // may not be the default visual).
        var attributes = XSetWindowAttributes()
        attributes.colormap = XCreateColormap(display, root, visualInfo.visual, AllocNone)
        attributes.border_pixel = 0
        attributes.background_pixel = 0
        attributes.event_mask = ExposureMask | KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask
            | ButtonMotionMask | FocusChangeMask | StructureNotifyMask
        window = XCreateWindow(
            display, root, 0, 0, UInt32(windowWidth), UInt32(windowHeight), 0, visualInfo.depth, UInt32(InputOutput), visualInfo.visual,
            UInt(CWColormap | CWBorderPixel | CWBackPixel | CWEventMask), &attributes
        )
        graphicsContext = XCreateGC(display, window, 0, nil)
        wmProtocols = XInternAtom(display, "WM_PROTOCOLS", 0)
        wmDeleteWindow = XInternAtom(display, "WM_DELETE_WINDOW", 0)
        netWMName = XInternAtom(display, "_NET_WM_NAME", 0)
        utf8String = XInternAtom(display, "UTF8_STRING", 0)
        var deleteWindow = wmDeleteWindow
        XSetWMProtocols(display, window, &deleteWindow, 1)
        // A fixed size: the screen does not resize.
        if let hints = XAllocSizeHints() {
            hints.pointee.flags = PMinSize | PMaxSize
            hints.pointee.min_width = Int32(windowWidth)
            hints.pointee.max_width = Int32(windowWidth)
            hints.pointee.min_height = Int32(windowHeight)
            hints.pointee.max_height = Int32(windowHeight)
            XSetWMNormalHints(display, window, hints)
            XFree(hints)
        }
        // A held key repeats as presses only, without a release between them.
        var detectable: Int32 = 0
        XkbSetDetectableAutoRepeat(display, 1, &detectable)

        connection = ConnectionState()
        XSetIOErrorExitHandler(display, { _, state in
            guard let state else { return }
            Unmanaged<ConnectionState>.fromOpaque(state).takeUnretainedValue().isBroken.store(true, ordering: .relaxed)
        }, Unmanaged.passUnretained(connection).toOpaque())

        // The shadow and the way it reaches the X server.
        var shared: SharedImage?
        var sharedFailure: String?
        if XShmQueryExtension(display) != 0 {
            do {
                shared = try SharedImage(display: display, visual: visualInfo.visual, depth: UInt32(visualInfo.depth), width: windowWidth, height: windowHeight)
            } catch {
                sharedFailure = error.reason
            }
        } else {
            sharedFailure = "the X server has no MIT-SHM extension"
        }
        let template: UnsafeMutablePointer<XImage>
        if let shared {
            template = shared.image
        } else {
            guard let image = XCreateImage(display, visualInfo.visual, UInt32(visualInfo.depth), ZPixmap, 0, nil, UInt32(windowWidth), UInt32(windowHeight), 32, 0) else {
                XCloseDisplay(display)
                throw .unsupportedXVisual(name: requestedName, reason: "XCreateImage failed for its depth-\(visualInfo.depth) visual")
            }
            template = image
        }
        let image = template.pointee
        var format = PixelFormat(
            bitsPerPixel: Int(image.bits_per_pixel),
            red: PixelFormat.Channel(mask: visualInfo.red_mask) ?? PixelFormat.Channel(offset: 16, length: 8),
            green: PixelFormat.Channel(mask: visualInfo.green_mask) ?? PixelFormat.Channel(offset: 8, length: 8),
            blue: PixelFormat.Channel(mask: visualInfo.blue_mask) ?? PixelFormat.Channel(offset: 0, length: 8),
            isBigEndian: image.byte_order == MSBFirst
        )
        if let reason = format.unsupportedReason {
            if let shared { shared.release(display: display) } else { openuikit_XDestroyImage(template) }
            XCloseDisplay(display)
            throw .unsupportedXVisual(name: requestedName, reason: "its pixels are \(reason)")
        }
        format.alpha = nil
        pixelFormat = format
        shadowStride = Int(image.bytes_per_line)
        shadow = UnsafeMutableRawPointer.allocate(byteCount: shadowStride * windowHeight, alignment: 16)
        shadow.initializeMemory(as: UInt8.self, repeating: 0, count: shadowStride * windowHeight)
        if shared == nil {
            template.pointee.data = shadow.assumingMemoryBound(to: CChar.self)
            shadowImage = template
        } else {
            shadowImage = nil
        }
        sharedImage = shared
        usesSharedMemory = shared != nil

        input = WindowInputTranslator(screen: screen, windowScale: scale, identifiers: identifiers)
        do {
            touches = try XInput2Touches.select(display: display, window: window)
        } catch {
            touches = nil
            notes.append("no touches from the window: \(error.reason)")
        }

        fileDescriptor = XConnectionNumber(display)
        if let sharedFailure { notes.append("MIT-SHM is not used (\(sharedFailure)): frames go by XPutImage") }
        name = "an X window on \(self.displayName), \(windowWidth)x\(windowHeight) at \(scale) pixels per point (\(shared != nil ? "MIT-SHM" : "XPutImage"))"
        self.notes = notes

        XStoreName(display, window, "OpenUIKit")
        XMapWindow(display, window)
        XFlush(display)
    }

    /// What the window had to do differently from what was asked (scaled to
    /// fit, no MIT-SHM, no touches), for the server's log.
    public let notes: [String]

    deinit {
        // A connection that died unnoticed is noticed here, before anything
        // is asked of it; a dead one is left alone.
        if !isBroken { XSync(display, 0) }
        if !isBroken {
            sharedImage?.release(display: display)
            if let shadowImage {
                shadowImage.pointee.data = nil  // The shadow is ours, not Xlib's to free.
                openuikit_XDestroyImage(shadowImage)
            }
            XFreeGC(display, graphicsContext)
            XDestroyWindow(display, window)
            XCloseDisplay(display)
        } else {
            sharedImage?.release(display: nil)
        }
        shadow.deallocate()
    }

    // MARK: - DisplayOutput

    public func show(_ frame: DisplayFrame, scrolls: [ServerMessage.FrameScroll], damage: [ServerMessage.PixelRect]) {
        guard !isBroken else { return }
        if converter == nil || converter?.sourceWidth != frame.width || converter?.sourceHeight != frame.height {
            guard frame.width > 0, frame.height > 0 else { return }
            converter = FrameConverter(sourceWidth: frame.width, sourceHeight: frame.height, destinationWidth: windowWidth, destinationHeight: windowHeight, format: pixelFormat)
        }
        guard let converter else { return }
        var stale: [ServerMessage.PixelRect] = []
        for scroll in scrolls {
            let (move, convert) = converter.screenMove(for: scroll)
            if let move { self.move(move, stale: &stale) }
            stale += convert
        }
        for rect in damage {
            if let target = converter.destinationRect(covering: rect) { stale.add(unlessCovered: target) }
        }
        for target in stale {
            converter.convert(frame, rect: target, into: shadow, destinationStride: shadowStride)
            dirty.append(target)
        }
        send()
    }

    /// Makes a scroll's move in the shadow and in the window (`XCopyArea`,
    /// at once: it reads the window, not the shared image, so it needs no
    /// completion, and the X server makes it after every put sent before
    /// it). Pixels the window lacks (`dirty`, waiting for a completion)
    /// and those `stale` lacks are carried to where they land: the window
    /// moved a wrong pixel there.
    private func move(_ move: PixelMove, stale: inout [ServerMessage.PixelRect]) {
        move.apply(to: shadow, stride: shadowStride, bytesPerPixel: pixelFormat.bytesPerPixel)
        move.carry(&stale)
        move.carry(&dirty)
        let target = move.destination
        XCopyArea(
            display, window, window, graphicsContext, Int32(Int(target.x) - move.dx), Int32(Int(target.y) - move.dy),
            target.width, target.height, Int32(target.x), Int32(target.y))
    }

    public func setTitle(_ title: String) {
        guard !isBroken else { return }
        XStoreName(display, window, title)
        var bytes = Array(title.utf8)
        XChangeProperty(display, window, netWMName, utf8String, 8, PropModeReplace, &bytes, Int32(bytes.count))
        XFlush(display)
    }

    public var hasPendingEvents: Bool {
        guard !isBroken else { return !reportedBroken }
        return !pendingInput.isEmpty || XEventsQueued(display, QueuedAfterReading) > 0
    }

    public func handleEvents() -> DisplayEvents {
        readEvents()
        if isBroken, !reportedBroken {
            reportedBroken = true
            isClosed = true
            pendingDiagnostics.append("the connection to the X display \(displayName) was lost (its X server stopped or went away): the window is gone and the server stops")
            input.finish(at: timeMapper.latest(readTime: Self.now()), into: &pendingInput)
        }
        pendingDiagnostics += input.takeDiagnostics()
        let result = DisplayEvents(input: pendingInput, isClosed: isClosed, diagnostics: pendingDiagnostics)
        pendingInput.removeAll()
        pendingDiagnostics.removeAll()
        return result
    }

    // MARK: - Events

    private var isBroken: Bool { connection.isBroken.load(ordering: .relaxed) }

    /// Handles every event Xlib has or can read without waiting; the
    /// input among them is translated as one batch read now.
    private func readEvents() {
        while !isBroken, XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            handle(&event)
        }
        collectProtocolErrors()
        guard !unstampedInput.isEmpty else { return }
        let readTime = Self.now()
        var times = timeMapper.map(serverTimes: unstampedInput.compactMap(\.serverTime), readTime: readTime)[...]
        for item in unstampedInput {
            let time = item.serverTime == nil ? timeMapper.latest(readTime: readTime) : times.removeFirst()
            input.translate(item.event, at: time, into: &pendingInput)
        }
        unstampedInput.removeAll(keepingCapacity: true)
    }

    /// Input read in this batch, with the X server's time when it has one.
    private var unstampedInput: [(event: WindowInputTranslator.Event, serverTime: UInt32?)] = []

    private func handle(_ event: inout XEvent) {
        let type = event.type
        func translate(_ windowEvent: WindowInputTranslator.Event, serverTime: Time) {
            unstampedInput.append((windowEvent, UInt32(truncatingIfNeeded: serverTime)))
        }
        switch type {
        case Expose:
            let expose = event.xexpose
            dirty.append(ServerMessage.PixelRect(x: UInt32(max(expose.x, 0)), y: UInt32(max(expose.y, 0)), width: UInt32(max(expose.width, 0)), height: UInt32(max(expose.height, 0))))
            if expose.count == 0 { send() }
        case GraphicsExpose:
            // A scroll's XCopyArea read part of the window that was hidden
            // (covered, off the screen): that part is painted from the shadow.
            let expose = event.xgraphicsexpose
            dirty.append(ServerMessage.PixelRect(x: UInt32(max(expose.x, 0)), y: UInt32(max(expose.y, 0)), width: UInt32(max(expose.width, 0)), height: UInt32(max(expose.height, 0))))
            if expose.count == 0 { send() }
        case NoExpose:
            break  // A scroll's XCopyArea found everything it read.
        case ClientMessage:
            let message = event.xclient
            if message.message_type == wmProtocols, Atom(bitPattern: message.data.l.0) == wmDeleteWindow {
                isClosed = true
            }
        case DestroyNotify:
            if event.xdestroywindow.window == window { isClosed = true }
        case ButtonPress, ButtonRelease:
            let button = event.xbutton
            translate(.button(button.button, isDown: type == ButtonPress, x: Double(button.x), y: Double(button.y)), serverTime: button.time)
        case MotionNotify:
            let motion = event.xmotion
            translate(.motion(x: Double(motion.x), y: Double(motion.y)), serverTime: motion.time)
        case KeyPress, KeyRelease:
            let key = event.xkey
            translate(.key(keycode: key.keycode, isDown: type == KeyPress), serverTime: key.time)
        case FocusOut:
            unstampedInput.append((.focusLost, nil))
        case GenericEvent:
            if let touches, let touch = touches.touch(in: &event, display: display) {
                translate(touch.event, serverTime: Time(touch.time))
            }
        default:
            if let sharedImage, type == sharedImage.completionEventType {
                sharedImage.outstandingPuts = max(sharedImage.outstandingPuts - 1, 0)
                if sharedImage.outstandingPuts == 0 { send() }
            }
        }
    }

    // MARK: - Pictures

    /// The most rectangles sent one by one; more are sent as their bounds.
    private static let maximumRectangles = 16

    /// Sends the changed parts of the shadow, unless the shared image is
    /// still being read (then its last completion sends them).
    private func send() {
        guard !dirty.isEmpty, !isBroken else { return }
        let window = ServerMessage.PixelRect(x: 0, y: 0, width: UInt32(windowWidth), height: UInt32(windowHeight))
        var rects = dirty.compactMap { $0.intersection(window) }
        if rects.count > Self.maximumRectangles { rects = [rects.dropFirst().reduce(rects[0]) { $0.union($1) }] }
        if let sharedImage {
            guard sharedImage.outstandingPuts == 0 else { return }
            for rect in rects {
                let rowBytes = Int(rect.width) * pixelFormat.bytesPerPixel
                let firstByte = Int(rect.x) * pixelFormat.bytesPerPixel
                for row in Int(rect.y)..<Int(rect.y + rect.height) {
                    let offset = row * shadowStride + firstByte
                    (sharedImage.pixels + offset).copyMemory(from: shadow + offset, byteCount: rowBytes)
                }
                XShmPutImage(display, self.window, graphicsContext, sharedImage.image, Int32(rect.x), Int32(rect.y), Int32(rect.x), Int32(rect.y), rect.width, rect.height, 1)
                sharedImage.outstandingPuts += 1
            }
        } else if let shadowImage {
            for rect in rects {
                XPutImage(display, self.window, graphicsContext, shadowImage, Int32(rect.x), Int32(rect.y), Int32(rect.x), Int32(rect.y), rect.width, rect.height)
            }
        }
        dirty.removeAll(keepingCapacity: true)
        XFlush(display)
    }

    /// Waits (up to `timeout` seconds) until every picture sent has been
    /// drawn and every event read: tests and benchmarks read the window's
    /// pixels after this. Input read meanwhile waits for ``handleEvents()``.
    public func synchronize(timeout: Double = 5) {
        let deadline = Self.now() + timeout
        while !isBroken, Self.now() < deadline {
            XSync(display, 0)
            readEvents()
            if (sharedImage?.outstandingPuts ?? 0) == 0, dirty.isEmpty { return }
            var entry = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 10)
        }
    }

    /// Reports the protocol errors recorded for this display. A refused
    /// `XShmPutImage` sends no completion, so it no longer holds the image.
    private func collectProtocolErrors() {
        for error in X11ErrorTrap.take(for: display) {
            if let sharedImage, Int32(error.requestCode) == sharedImage.majorOpcode, error.minorCode == SharedImage.putImageRequest {
                sharedImage.outstandingPuts = max(sharedImage.outstandingPuts - 1, 0)
            }
            pendingDiagnostics.append("the X server refused a request: \(error)")
        }
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Whether the X connection broke: set by Xlib's exit handler, which may
/// run inside any Xlib call.
private final class ConnectionState: Sendable {
    let isBroken = Atomic<Bool>(false)
}

/// One MIT-SHM image the size of the window, in a System V shared memory
/// segment the X server attaches.
private final class SharedImage {
    let image: UnsafeMutablePointer<XImage>
    let pixels: UnsafeMutableRawPointer
    /// The segment's description. The image keeps a pointer to it
    /// (`obdata`), which every `XShmPutImage` follows: it must not move.
    private let segment: UnsafeMutablePointer<XShmSegmentInfo>
    /// The event type of `ShmCompletion` on this display.
    let completionEventType: Int32
    /// MIT-SHM's request code, which its errors name.
    let majorOpcode: Int32
    /// `X_ShmPutImage`, the minor request code of a put (shmproto.h).
    static let putImageRequest: UInt8 = 3
    /// `XShmPutImage`s whose completion has not arrived: while any has not,
    /// the X server may be reading the image.
    var outstandingPuts = 0

    struct Failure: Error {
        let reason: String
    }

    init(display: OpaquePointer, visual: UnsafeMutablePointer<Visual>?, depth: UInt32, width: Int, height: Int) throws(Failure) {
        let segment = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        segment.initialize(to: XShmSegmentInfo())
        func fail(_ reason: String) -> Failure {
            segment.deallocate()
            return Failure(reason: reason)
        }
        guard let image = XShmCreateImage(display, visual, depth, ZPixmap, nil, segment, UInt32(width), UInt32(height)) else {
            throw fail("XShmCreateImage failed")
        }
        let size = Int(image.pointee.bytes_per_line) * height
        segment.pointee.shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0o600)
        guard segment.pointee.shmid >= 0 else {
            openuikit_XDestroyImage(image)
            throw fail("shmget of \(size) bytes failed: \(String(cString: strerror(errno)))")
        }
        guard let address = shmat(segment.pointee.shmid, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else {
            shmctl(segment.pointee.shmid, IPC_RMID, nil)
            openuikit_XDestroyImage(image)
            throw fail("shmat failed: \(String(cString: strerror(errno)))")
        }
        segment.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        segment.pointee.readOnly = 1
        image.pointee.data = segment.pointee.shmaddr
        // XShmAttach fails with BadAccess when the X server cannot reach the
        // segment (it runs on another machine): trap that error.
        _ = X11ErrorTrap.take(for: display)
        let attached = XShmAttach(display, segment) != 0
        XSync(display, 0)
        let errors = X11ErrorTrap.take(for: display)
        // Marked for removal now, so the segment goes when both sides detach, even after a crash.
        shmctl(segment.pointee.shmid, IPC_RMID, nil)
        guard attached, errors.isEmpty else {
            image.pointee.data = nil
            openuikit_XDestroyImage(image)
            shmdt(address)
            throw fail(errors.first.map { "XShmAttach failed: \($0); the X server is probably not on this machine" } ?? "XShmAttach failed")
        }
        self.image = image
        self.pixels = address
        self.segment = segment
        completionEventType = XShmGetEventBase(display) + ShmCompletion
        var major: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        XQueryExtension(display, "MIT-SHM", &major, &event, &error)
        majorOpcode = major
    }

    /// Detaches the segment (from the X server too, given its display) and frees the image.
    func release(display: OpaquePointer?) {
        if let display {
            XShmDetach(display, segment)
            XSync(display, 0)
        }
        image.pointee.data = nil
        openuikit_XDestroyImage(image)
        shmdt(pixels)
        segment.deallocate()
    }
}

/// Xlib's protocol errors, recorded instead of exiting. Xlib has one error
/// handler per process, called with no context but the display, so this is
/// process-wide state: each window takes its own display's errors.
enum X11ErrorTrap {
    struct Recorded: CustomStringConvertible {
        let display: UInt
        let errorCode: UInt8
        let requestCode: UInt8
        let minorCode: UInt8
        let text: String

        var description: String { "\(text) (request \(requestCode).\(minorCode))" }
    }

    private static let recorded = Mutex<[Recorded]>([])
    /// The most errors kept per display between two takes; older ones are dropped.
    private static let limit = 100

    private static let installation: Void = {
        // Xlib calls XInitThreads itself since 1.8; tests open windows from several threads.
        XInitThreads()
        XSetErrorHandler { display, event in
            guard let display, let event else { return 0 }
            var buffer = [CChar](repeating: 0, count: 160)
            XGetErrorText(display, Int32(event.pointee.error_code), &buffer, Int32(buffer.count))
            let error = Recorded(
                display: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display))),
                errorCode: event.pointee.error_code, requestCode: event.pointee.request_code, minorCode: event.pointee.minor_code,
                text: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            )
            X11ErrorTrap.recorded.withLock { list in
                if list.count < X11ErrorTrap.limit { list.append(error) }
            }
            return 0
        }
        // The exit handler of each display reports a lost connection; the
        // default I/O handler would only print Xlib's own message first.
        XSetIOErrorHandler { _ in 0 }
    }()

    static func install() {
        _ = installation
    }

    /// The errors recorded for `display` since the last take.
    static func take(for display: OpaquePointer) -> [Recorded] {
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
        return recorded.withLock { list in
            let mine = list.filter { $0.display == key }
            list.removeAll { $0.display == key }
            return mine
        }
    }
}

extension ServerMessage.PixelRect {
    /// The part inside `other`, or nil when they do not meet.
    func intersection(_ other: ServerMessage.PixelRect) -> ServerMessage.PixelRect? {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(UInt64(x) + UInt64(width), UInt64(other.x) + UInt64(other.width))
        let bottom = min(UInt64(y) + UInt64(height), UInt64(other.y) + UInt64(other.height))
        guard UInt64(left) < right, UInt64(top) < bottom else { return nil }
        return ServerMessage.PixelRect(x: left, y: top, width: UInt32(right - UInt64(left)), height: UInt32(bottom - UInt64(top)))
    }

    /// The smallest rectangle holding both.
    func union(_ other: ServerMessage.PixelRect) -> ServerMessage.PixelRect {
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(UInt64(x) + UInt64(width), UInt64(other.x) + UInt64(other.width))
        let bottom = max(UInt64(y) + UInt64(height), UInt64(other.y) + UInt64(other.height))
        return ServerMessage.PixelRect(x: left, y: top, width: UInt32(right - UInt64(left)), height: UInt32(bottom - UInt64(top)))
    }
}
