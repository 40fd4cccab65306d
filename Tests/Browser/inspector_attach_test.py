#!/usr/bin/env python3
"""`openuikit inspect --attach` in a real browser (headless Chromium driven by Selenium).

Three processes besides the browser, as in real use: the event server
(`openuikit-server`, headless display), TouchLogger (its left half red,
its right half blue; each view prints the touch calls it receives) and
`openuikit inspect --attach logger`, attached to it through the server.
The test opens the page and checks that it shows the application's screen
(the frame the server's display showed: red on the left, blue on the right,
read back from the picture's pixels) and its view tree, then clicks the
right half of the picture: the touch goes from the page through the
inspector to the server's input and into TouchLogger, which prints
`right began` / `right ended`, and the page shows that touch's hit-test
walk, the view found and the responder chain up to the application's
delegate. Saves a screenshot of the page.

    Tests/Browser/inspector_attach_test.py BUILD_DIRECTORY SCREENSHOT.png

BUILD_DIRECTORY holds openuikit, openuikit-server and TouchLogger.
Exits non-zero, saying why, if anything fails or cannot run.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from inspector_page import headless_chromium, touch_panel

# The server's screen, in points, at scale 1: TouchLogger's views are its two halves.
SCREEN_WIDTH, SCREEN_HEIGHT = 200, 100


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


class Process:
    """A child process whose standard output and error are read, line by line, on a thread."""

    def __init__(self, arguments, environment=None):
        self.arguments = arguments
        self.lines = []
        self.finished = False
        self.condition = threading.Condition()
        self.process = subprocess.Popen(
            arguments, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=dict(os.environ, **(environment or {})))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            with self.condition:
                self.lines.append(line.rstrip("\n"))
                self.condition.notify_all()
        with self.condition:
            self.finished = True
            self.condition.notify_all()

    def wait_for(self, pattern, timeout=20):
        """The first match of `pattern` in the lines printed so far or within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                for line in self.lines:
                    match = re.search(pattern, line)
                    if match:
                        return match
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.finished:
                    how = "exited without printing" if self.finished else f"did not print within {timeout} s"
                    fail(f"{os.path.basename(self.arguments[0])} {how} /{pattern}/; it printed: {self.lines[-20:]}")
                self.condition.wait(min(remaining, 0.1))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def main():
    if len(sys.argv) != 3:
        fail("usage: inspector_attach_test.py BUILD_DIRECTORY SCREENSHOT.png")
    build, screenshot = sys.argv[1], sys.argv[2]
    for program in ["openuikit", "openuikit-server", "TouchLogger"]:
        if not os.access(os.path.join(build, program), os.X_OK):
            fail(f"{program} is not built in {build}")
    directory = tempfile.mkdtemp(prefix="inspector-attach-")
    socket = os.path.join(directory, "server.sock")
    processes = []
    driver = None
    try:
        server = Process([os.path.join(build, "openuikit-server"), "--socket", socket,
                          "--screen", f"{SCREEN_WIDTH}x{SCREEN_HEIGHT}@1"])
        processes.append(server)
        server.wait_for(r"listening at")
        app = Process([os.path.join(build, "TouchLogger")],
                      {"OPENUIKIT_SERVER": socket, "OPENUIKIT_APP_NAME": "logger"})
        processes.append(app)
        app.wait_for(r"didBecomeActive")
        inspector = Process([os.path.join(build, "openuikit"), "inspect", "--attach", "logger",
                             "--socket", socket, "--port", "0", "--seconds", "60"])
        processes.append(inspector)
        url = inspector.wait_for(r"http://[^ ]+/").group(0)

        driver = headless_chromium(1400, 1000)
        driver.get(url)
        wait = WebDriverWait(driver, 20, poll_frequency=0.05)

        def until(what, condition):
            """Waits for `condition`, failing with `what` and the page's status and tree when it does not come."""
            try:
                wait.until(condition)
            except TimeoutException:
                status = driver.find_element(By.ID, "status").text
                rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#tree .row")]
                fail(f"the page never showed {what}; status {status!r}, tree {rows}; the inspector printed {inspector.lines[-10:]}")

        # Attached: the status line, the application's name, its tree and its screen.
        until("that it is attached", lambda d: d.find_element(By.ID, "status").text.startswith("attached"))
        status = driver.find_element(By.ID, "status").text
        if "logger" not in status:
            fail(f"the page's status does not name the application: {status!r}")
        until("TouchLogger's two views in the tree", lambda d: {"LoggingView “left”", "LoggingView “right”"} <= {
            row.find_element(By.CSS_SELECTOR, "span").text for row in d.find_elements(By.CSS_SELECTOR, "#tree .row")})
        until("a frame", lambda d: d.execute_script("return document.getElementById('screen').naturalWidth") > 0)
        # The picture is the frame the server's display showed: red left, blue right.
        size, left, right = driver.execute_script("""
            const image = document.getElementById('screen');
            const canvas = document.createElement('canvas');
            canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
            const context = canvas.getContext('2d');
            context.drawImage(image, 0, 0);
            const pixel = (x, y) => Array.from(context.getImageData(x, y, 1, 1).data);
            return [[image.naturalWidth, image.naturalHeight],
                    pixel(Math.floor(image.naturalWidth / 4), Math.floor(image.naturalHeight / 2)),
                    pixel(Math.floor(image.naturalWidth * 3 / 4), Math.floor(image.naturalHeight / 2))];""")
        if size != [SCREEN_WIDTH, SCREEN_HEIGHT]:
            fail(f"the screen picture is {size[0]}x{size[1]} pixels, not the server's {SCREEN_WIDTH}x{SCREEN_HEIGHT} points")
        if left != [255, 0, 0, 255] or right != [0, 0, 255, 255]:
            fail(f"the screen picture is not TouchLogger's red and blue halves: left {left}, right {right}")

        # A click on the picture's right half, at screen point (150, 40): a
        # touch through the server's input, received by the right view.
        x, y = 150, 40
        left_edge, top_edge, scale_x, scale_y = driver.execute_script(
            "const r = document.getElementById('screen').getBoundingClientRect();"
            "return [r.left, r.top, r.width / state.screen.width, r.height / state.screen.height];")
        actions = ActionBuilder(driver)
        actions.pointer_action.move_to_location(round(left_edge + x * scale_x), round(top_edge + y * scale_y))
        actions.pointer_action.click()
        actions.perform()
        # The page sends the point under the pointer: (x, y) within a pixel's rounding.
        for phase in ["began", "ended"]:
            match = app.wait_for(rf"right {phase} 1 \(([0-9.]+),([0-9.]+)\)")
            received = (float(match.group(1)), float(match.group(2)))
            if abs(received[0] - x) > 1 or abs(received[1] - y) > 1:
                fail(f"the right view's touch {phase} at {received}, not at the clicked point ({x}, {y})")
        if any(line.startswith("left ") for line in app.lines):
            fail(f"the left view received a touch: {app.lines}")

        # Its trace and chain, as the application reported them through the server.
        until("the touch's touchesEnded", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#methods li[data-phase='ended']")) > 0)
        until("the touch's responder chain", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#chain li")) > 0)
        panel = touch_panel(driver)
        walk, chain, delivered = panel["walk"], panel["chain"], panel["delivered"]
        if walk != [("UIWindow", "accepted"), ("right", "accepted")]:
            fail(f"hit-test walk in the page: {walk}, expected the window, then right (asked first, being in front)")
        if panel["found"] != "right":
            fail(f"the view found is {panel['found']!r}, not right")
        if chain != ["right", "UIWindow", "UIApplication", "AppDelegate"]:
            fail(f"responder chain in the page: {chain}")
        if delivered != [("right", "began"), ("right", "ended")]:
            fail(f"touch methods the application called: {delivered}, expected right's touchesBegan and touchesEnded")
        # Choosing a view in the tree outlines it on the screen (blue, over its frame).
        left_name = "LoggingView “left”"
        row = next(row for row in driver.find_elements(By.CSS_SELECTOR, "#tree .row")
                   if row.find_element(By.CSS_SELECTOR, "span").text == left_name)
        row.click()
        until("the chosen row marked", lambda d: "selected" in row.get_attribute("class"))
        outlines = driver.execute_script("""
            return Array.from(document.querySelectorAll('#overlay rect'))
                .filter(r => r.getAttribute('stroke') === '#1a73e8')
                .map(r => ['x', 'y', 'width', 'height'].map(a => Number(r.getAttribute(a)) / (arguments[0])));""", scale_x)
        if [[round(value) for value in box] for box in outlines] != [[0, 0, SCREEN_WIDTH // 2, SCREEN_HEIGHT]]:
            fail(f"choosing the left view outlined {outlines} (in points), not its frame (0, 0, {SCREEN_WIDTH // 2}, {SCREEN_HEIGHT})")
        driver.save_screenshot(screenshot)
        print(f"ok: {status}; screen {size[0]}x{size[1]}; walk {walk}; chain {chain}; delivered {delivered}; screenshot {screenshot}")
    finally:
        if driver is not None:
            driver.quit()
        for process in reversed(processes):
            process.stop()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
