"""What the inspector's page shows of the chosen touch, read from its DOM, for the browser tests."""
from selenium.webdriver.common.by import By


def touch_panel(driver):
    """The chosen touch's hit-test walk [(view, "accepted" or "refused")], the view found,
    the responder chain and the touch methods called [(view, phase)], as the page shows them."""
    return {
        "walk": [(item.get_attribute("data-view"), item.get_attribute("class"))
                 for item in driver.find_elements(By.CSS_SELECTOR, "#walk li")],
        "found": driver.find_element(By.ID, "found").get_attribute("data-view"),
        "chain": [item.get_attribute("data-responder") for item in driver.find_elements(By.CSS_SELECTOR, "#chain li")],
        "delivered": [(item.get_attribute("data-view"), item.get_attribute("data-phase"))
                      for item in driver.find_elements(By.CSS_SELECTOR, "#methods li[data-phase]")],
    }
