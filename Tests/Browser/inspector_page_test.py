#!/usr/bin/env python3
"""The inspector's page in a real browser (headless Chromium driven by Selenium).

Writes the built-in picture seed-b-traced-hierarchy to a scene file
(`openuikit render --print`), starts `openuikit inspect FILE --port 0
--listen 127.0.0.2` (a scene file, served on another address than the
default: the port must not answer on 127.0.0.1), opens the page, checks
that its scene picker names the file, clicks the red view in the screen
picture, and checks in the page's DOM the
hit-test walk (the article's order: yellow refuses, light grey accepts,
green refuses, red accepts), the view found, the responder chain from red
up to the application, and that red received touchesBegan and
touchesEnded (the records the application's window makes as it calls
them). Saves a screenshot of the page.

    Tests/Browser/inspector_page_test.py OPENUIKIT_BINARY SCREENSHOT.png

Exits non-zero, saying why, if anything fails or cannot run.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from inspector_page import headless_chromium, touch_panel


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


# Linux answers on the whole of 127.0.0.0/8, so a second loopback address
# stands for "another interface" without touching the machine's network.
LISTEN_ADDRESS = "127.0.0.2"


def write_scene_file(binary, directory):
    """The built-in seed B picture as a scene file, as a user would start one."""
    printed = subprocess.run([binary, "render", "--print", "seed-b-traced-hierarchy"],
                             capture_output=True, text=True, timeout=30)
    if printed.returncode != 0 or not printed.stdout.lstrip().startswith("{"):
        fail(f"openuikit render --print gave no scene file: {printed.stderr}")
    path = os.path.join(directory, "seed-b.json")
    with open(path, "w", encoding="utf-8") as file:
        file.write(printed.stdout)
    return path


def refuses_connections(host, port):
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex((host, port)) != 0


def start_inspector(binary, scene_file):
    process = subprocess.Popen(
        [binary, "inspect", scene_file, "--port", "0", "--listen", LISTEN_ADDRESS, "--seconds", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        match = re.search(r"http://([^ /]+):([0-9]+)/ \((.*);", line)
        if match:
            host, port, what = match.group(1), int(match.group(2)), match.group(3)
            if host != LISTEN_ADDRESS:
                process.kill()
                fail(f"the inspector says it serves on {host}, not on --listen's {LISTEN_ADDRESS}: {line.strip()}")
            if what != f"scene {scene_file}":
                process.kill()
                fail(f"the inspector says it runs {what!r}, not the scene file {scene_file}")
            if not refuses_connections("127.0.0.1", port):
                process.kill()
                fail(f"port {port} answers on 127.0.0.1 too: --listen {LISTEN_ADDRESS} should be the only address")
            return process, match.group(0).split(" ")[0]
    process.kill()
    fail(f"the inspector printed no address: {process.stderr.read()}")


def main():
    if len(sys.argv) != 3:
        fail("usage: inspector_page_test.py OPENUIKIT_BINARY SCREENSHOT.png")
    binary, screenshot = sys.argv[1], sys.argv[2]
    scene_directory = tempfile.mkdtemp(prefix="inspector-page-test.")
    scene_file = write_scene_file(binary, scene_directory)
    process, url = start_inspector(binary, scene_file)
    driver = headless_chromium(1400, 1300)
    try:
        driver.get(url)
        wait = WebDriverWait(driver, 20)
        wait.until(lambda d: d.find_element(By.ID, "status").text == "live")
        # The first frame, and the tree with red in it.
        wait.until(lambda d: d.execute_script("return document.getElementById('screen').naturalWidth") > 0)
        wait.until(lambda d: any(row.text.startswith('UIView “red”') for row in d.find_elements(By.CSS_SELECTOR, "#tree .row")))
        # The picker lists the file first and has chosen it; the built-in pictures follow.
        choices = driver.execute_script("return Array.from(document.getElementById('scene').options, o => o.value)")
        chosen = driver.execute_script("return document.getElementById('scene').value")
        if not choices or choices[0] != scene_file or chosen != scene_file or "seed-b-traced-hierarchy" not in choices:
            fail(f"the scene picker offers {choices} with {chosen!r} chosen; expected the file {scene_file} first and chosen")

        def pointer_at(x, y, click=False):
            """Moves the mouse to screen point (x, y) of the picture, in the viewport's coordinates."""
            left, top, scale = driver.execute_script(
                "const r = document.getElementById('screen').getBoundingClientRect();"
                "return [r.left, r.top, r.width / state.screen.width];")
            actions = ActionBuilder(driver)
            actions.pointer_action.move_to_location(int(left + x * scale), int(top + y * scale))
            if click:
                actions.pointer_action.click()
            actions.perform()

        # Red is (33,147,196,100) on the screen; (120,190) is on it, away
        # from green and from the marker of the article's tap.
        x, y = 120, 190
        pointer_at(x, y, click=True)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#methods li[data-phase='ended']")) > 0)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#chain li")) > 0)

        panel = touch_panel(driver)
        walk, chain, delivered = panel["walk"], panel["chain"], panel["delivered"]
        expected_walk = [("UIWindow", "accepted"), ("the tap", "refused"), ("yellow", "refused"),
                         ("light grey", "accepted"), ("green", "refused"), ("red", "accepted")]
        # Labels in front of everything are asked first: keep the views the article names and the window.
        named = [entry for entry in walk if entry[0] in {"UIWindow", "the tap", "yellow", "light grey", "green", "red"}]
        if named != expected_walk:
            fail(f"hit-test walk in the page: {walk}, expected (among these views) {expected_walk}")
        if panel["found"] != "red":
            fail(f"the view found is {panel['found']!r}, not red")
        if chain != ["red", "light grey", "UIWindow", "UIApplication"]:
            fail(f"responder chain in the page: {chain}")
        if delivered != [("red", "began"), ("red", "ended")]:
            fail(f"touch methods the application called: {delivered}, expected red's touchesBegan and touchesEnded")
        # Step the timeline back to the first record: the page stays responsive.
        driver.find_element(By.ID, "step-back").click()
        # Hovering picks the view under the pointer: yellow, at (100, 350).
        pointer_at(100, 350)
        wait.until(lambda d: "yellow" in " ".join(row.text for row in d.find_elements(By.CSS_SELECTOR, "#tree .row.hover")))
        # Hover red again for the picture, with its walk drawn.
        pointer_at(x, y)
        time.sleep(0.2)
        driver.save_screenshot(screenshot)
        print(f"ok: walk {[entry[0] for entry in walk]}, chain {chain}, delivered {delivered}; screenshot {screenshot}")
    finally:
        driver.quit()
        shutil.rmtree(scene_directory, ignore_errors=True)
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
    if process.returncode not in (0, -15):
        fail(f"the inspector exited with {process.returncode}: {process.stderr.read()}")


if __name__ == "__main__":
    main()
