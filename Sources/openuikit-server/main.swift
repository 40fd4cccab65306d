import ArgumentParser
import EventServer
import HID

/// The event server: owns the input devices and feeds the foreground
/// application (backboardd's role).
@main
struct OpenUIKitServer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openuikit-server",
        abstract: "The event server: reads input devices and sends their events to the foreground application.",
        discussion: """
            Applications connect to the socket at launch (OPENUIKIT_SERVER names it when it is not \
            the default). The most recently connected application is in front; `openuikit apps` \
            lists them and `openuikit switch NAME` brings one to the front. Stops on SIGINT or \
            SIGTERM, telling every application and removing the socket.
            """
    )

    @Option(help: ArgumentHelp("The Unix-domain socket to listen on.", valueName: "path"))
    var socket: String = ServerConfiguration.defaultSocketPath()

    @Option(help: ArgumentHelp(
        "An input device: an evdev node, a FIFO or file of input_event records or evemu text, or a HID recording. Repeatable. Without it the server reads every device in --input-directory, and those plugged in later.",
        valueName: "path"))
    var device: [String] = []

    @Option(help: ArgumentHelp(
        "An evemu recording (or evemu-describe output) whose header describes the device behind the --device FIFOs and files of bare input_event records: its axis ranges scale their positions to the screen. Without it, their positions are screen points.",
        valueName: "path"))
    var deviceHeader: String?

    @Option(help: ArgumentHelp("Where evdev devices are found when no --device is given.", valueName: "path"))
    var inputDirectory: String = InputDevices.defaultDirectory

    @Option(help: ArgumentHelp("The screen: width x height in points @ scale.", valueName: "WxH@S"))
    var screen: String = Screen.standard.description

    @Option(help: ArgumentHelp(
        "The screen's safe area in points: top,left,bottom,right (47,0,34,0). Default: the portrait safe area of the iPhone of --screen's size and scale (390x844@3: 47,0,34,0), else none.",
        valueName: "insets"))
    var safeArea: String?

    @Option(help: ArgumentHelp("Where frames are shown: x11 (a window), fb (/dev/fb0) or headless. Default: x11 when DISPLAY is set, else fb when /dev/fb0 opens, else headless.", valueName: "output"))
    var display: String?

    @Option(help: ArgumentHelp("The display's refreshes per second: 60 or 120.", valueName: "hz"))
    var refresh: Int = 60

    @Option(help: ArgumentHelp("Headless: write every frame shown as a PNG file in this directory.", valueName: "dir"))
    var frames: String?

    @Option(help: ArgumentHelp("The window's pixels per point (0.5 halves it); by default 1, or less to fit the X screen.", valueName: "scale"))
    var windowScale: Double?

    @Option(help: ArgumentHelp(
        "The kernel's CPU latency device, held at zero while a finger is down so that idle processors wake at once for a touch's frames; none: never.",
        valueName: "path"))
    var wakeUpLatencyDevice: String = "/dev/cpu_dma_latency"

    @Option(help: .hidden)
    var watchdogTimeout: Double = 5

    func validate() throws {
        guard Screen(parsing: screen) != nil else {
            throw ValidationError("--screen must look like 390x844@3 (positive points and scale), not \(screen)")
        }
        if let safeArea {
            guard let insets = ScreenInsets(parsing: safeArea) else {
                throw ValidationError("--safe-area must be four numbers of points, top,left,bottom,right (47,0,34,0), not \(safeArea)")
            }
            let size = Screen(parsing: screen)!
            guard insets.fits(width: size.width, height: size.height) else {
                throw ValidationError("--safe-area \(safeArea) does not fit the \(size) screen: insets are finite, not negative, and leave room between opposite edges")
            }
        }
        guard refresh == 60 || refresh == 120 else {
            throw ValidationError("--refresh must be 60 or 120, not \(refresh)")
        }
        if let display, !["x11", "fb", "headless"].contains(display) {
            throw ValidationError("--display must be x11, fb or headless, not \(display)")
        }
        guard watchdogTimeout.isFinite, watchdogTimeout > 0 else {
            throw ValidationError("--watchdog-timeout must be a positive number of seconds")
        }
    }

    func run() throws {
        var drivenScreen = Screen(parsing: screen)!
        if let safeArea { drivenScreen.safeArea = ScreenInsets(parsing: safeArea)! }
        let configuration = ServerConfiguration(
            socketPath: socket, screen: drivenScreen, refreshRate: refresh, watchdogTimeout: watchdogTimeout,
            wakeUpLatencyDevice: wakeUpLatencyDevice == "none" ? nil : wakeUpLatencyDevice)
        let server: EventServer
        let identifiers = ContactIdentifiers()
        do {
            let output = try DisplayChoice.open(
                display, screen: configuration.screen, framesDirectory: frames, windowScale: windowScale,
                identifiers: identifiers, log: configuration.log)
            server = try EventServer(configuration: configuration, display: output)
        } catch {
            configuration.log("\(error)")
            throw ExitCode.failure
        }
        do {
            var description: InputDeviceDescription?
            if let deviceHeader { description = try InputDeviceDescription.evemuHeader(atPath: deviceHeader) }
            for path in device {
                server.add(try InputDevices.open(
                    path: path, screen: configuration.screen, identifiers: identifiers, device: description))
            }
        } catch {
            configuration.log("\(error)")
            server.shutDown()
            throw ExitCode.failure
        }
        configuration.log("listening at \(socket), screen \(configuration.screen), \(refresh) Hz, frames: \(server.display.name)")
        server.run()
    }
}
