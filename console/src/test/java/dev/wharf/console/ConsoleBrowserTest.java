package dev.wharf.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.wharf.broker.Broker;
import dev.wharf.broker.config.BrokerSettings;
import dev.wharf.client.ClientConfig;
import dev.wharf.client.admin.AdminClient;
import dev.wharf.client.consumer.ConsumeConcurrentlyStatus;
import dev.wharf.client.consumer.MessageListenerConcurrently;
import dev.wharf.client.consumer.PushConsumer;
import dev.wharf.client.producer.Producer;
import dev.wharf.common.message.Message;
import dev.wharf.namesrv.NameServer;
import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The console's pages in a real browser: Selenium drives headless Chromium against the console running on a free
 * port, which reads a real NameServer and broker in this JVM. Everything a test checks is what the page shows.
 * One browser, one cluster and one console serve the whole class; the console has users, and each test starts
 * signed in as an admin. Skipped, saying how to install them, when Chromium or chromedriver is missing.
 *
 * <p>The tests also take the README's pictures of the main pages: into {@code target/console-screenshots}, or the
 * folder {@code -Dwharf.console.screenshots=DIR} names.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"wharf.console.sample-interval=200ms", "server.address=127.0.0.1"})
class ConsoleBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(45);
    private static final Duration SIGN_IN_WAIT = Duration.ofSeconds(90);
    private static final Path CHROMEDRIVER = Path.of(System.getProperty("wharf.test.chromedriver",
            "/usr/bin/chromedriver"));
    private static final Path CHROMIUM = Path.of(System.getProperty("wharf.test.chromium", "/usr/bin/chromium"));
    private static final Path SCREENSHOTS = Path.of("target", "browser-screenshots");
    private static final Path PICTURES = Path.of(System.getProperty("wharf.console.screenshots",
            "target/console-screenshots"));

    private static Path dir;
    private static Path users;
    /** Who the shared browser is signed in as (null: nobody). */
    private static String signedIn;
    private static NameServer nameServer;
    private static Broker broker;
    private static WebDriver driver;

    @LocalServerPort
    int port;
    private Producer producer;
    private PushConsumer consumer;

    /** A failed test leaves a picture of the page it failed on. */
    @RegisterExtension
    final TestWatcher screenshotOnFailure = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (driver == null) {
                return;
            }
            try {
                Files.createDirectories(SCREENSHOTS);
                byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
                Files.write(SCREENSHOTS.resolve(context.getRequiredTestMethod().getName() + ".png"), png);
            } catch (Exception e) {
                cause.addSuppressed(e);
            }
        }
    };

    @BeforeAll
    static void startClusterAndBrowser() throws Exception {
        boolean present = Files.isExecutable(CHROMEDRIVER) && Files.isExecutable(CHROMIUM);
        String missing = "ConsoleBrowserTest skipped: browser tests need Chromium and its driver at " + CHROMIUM
                + " and " + CHROMEDRIVER + ": install them with 'apt-get install chromium chromium-driver'"
                + " (Debian/Ubuntu), or point -Dwharf.test.chromium and -Dwharf.test.chromedriver at other copies";
        if (!present) {
            // the build's summary shows a class skipped in @BeforeAll as "0 tests" without the reason: say it here
            System.err.println(missing);
        }
        Assumptions.assumeTrue(present, missing);
        dir = Files.createTempDirectory("wharf-console-browser-test");
        users = TestUsers.write(dir);
        nameServer = NameServer.onPort(0);
        nameServer.start();
        BrokerSettings s = BrokerSettings.defaults();
        s.store().setStorePathRootDir(dir.resolve("broker").toString());
        s.store().setMappedFileSizeCommitLog(4 * 1024 * 1024);
        s.store().setMaxMessageSize(256 * 1024);
        s.netty().setListenPort(0);
        s.broker().setBrokerName("browser-broker");
        s.broker().setNamesrvAddr(nameServer.address());
        s.broker().setDefaultTopicQueueNums(2);
        s.broker().schedule().setMessageDelayLevel("100ms 100ms 100ms 1h");
        broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();

        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // root in a container: Chromium's sandbox cannot start there, and /dev/shm is often tiny
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1366,760", "--hide-scrollbars");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    @DynamicPropertySource
    static void namesrv(DynamicPropertyRegistry registry) {
        registry.add("wharf.console.namesrv", () -> nameServer.address());
        registry.add("wharf.console.users-file", () -> users.toString());
    }

    @BeforeEach
    void signedInAsAdmin() {
        if (!TestUsers.ROOT.equals(signedIn)) {
            signIn(TestUsers.ROOT, TestUsers.ROOT_PASSWORD);
        }
    }

    @AfterAll
    static void stopClusterAndBrowser() throws Exception {
        signedIn = null;
        if (driver != null) {
            driver.quit();
        }
        if (broker != null) {
            broker.shutdown();
        }
        if (nameServer != null) {
            nameServer.shutdown();
        }
        if (dir != null) {
            try (var paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @AfterEach
    void stopClients() {
        if (consumer != null) {
            consumer.shutdown();
        }
        if (producer != null) {
            producer.shutdown();
        }
    }

    private ClientConfig clientConfig() {
        ClientConfig config = new ClientConfig();
        config.setNamesrvAddr(nameServer.address());
        config.setInstanceName("browser-test-" + System.nanoTime());
        config.setPollNameServerInterval(500);
        config.setHeartbeatBrokerInterval(1_000);
        config.setPersistConsumerOffsetInterval(300);
        return config;
    }

    private Producer producer() throws Exception {
        producer = new Producer("browser-test-producer", clientConfig());
        producer.start();
        return producer;
    }

    /** A topic made outside the page, for tests about something else. */
    private void createTopic(String topic) throws Exception {
        AdminClient admin = new AdminClient(clientConfig());
        admin.start();
        try {
            admin.createTopic(topic, 2);
        } finally {
            admin.shutdown();
        }
        broker.registerWithNameServers().join();
    }

    private WebDriverWait waiting() {
        return new WebDriverWait(driver, WAIT);
    }

    private void open(String hash) {
        driver.get("http://127.0.0.1:" + port + "/#" + hash);
    }

    /** Reloads the page until the element's text contains the expected text: the page draws what the API knew. */
    private void reloadUntilText(String hash, By element, String expected) {
        waiting().pollingEvery(Duration.ofMillis(300)).until(d -> {
            open(hash);
            d.navigate().refresh();
            return new WebDriverWait(d, Duration.ofSeconds(3))
                    .until(ExpectedConditions.presenceOfElementLocated(element)).getText().contains(expected);
        });
    }

    /**
     * Signs in through the page's form, signing out first when someone else is signed in. What the page shows
     * decides, not what an earlier (maybe failed) test left noted: a sign-in costs a PBKDF2 derivation on the
     * server, slow on a busy machine, hence the longer wait.
     */
    private void signIn(String user, String password) {
        WebDriverWait slow = new WebDriverWait(driver, SIGN_IN_WAIT);
        open("cluster");
        slow.until(d -> !d.findElements(By.id("login-form")).isEmpty() || d.findElement(By.id("who")).isDisplayed());
        if (driver.findElements(By.id("login-form")).isEmpty()) {
            if (driver.findElement(By.id("who-name")).getText().startsWith(user + " (")) {
                signedIn = user;
                return;
            }
            driver.findElement(By.id("logout")).click();
            slow.until(ExpectedConditions.presenceOfElementLocated(By.id("login-form")));
        }
        signedIn = null;
        WebElement name = slow.until(ExpectedConditions.elementToBeClickable(By.id("login-user")));
        name.clear();
        name.sendKeys(user);
        WebElement secret = driver.findElement(By.id("login-password"));
        secret.clear();
        secret.sendKeys(password);
        driver.findElement(By.id("login-button")).click();
        slow.until(ExpectedConditions.textToBePresentInElementLocated(By.id("who-name"), user + " ("));
        signedIn = user;
    }

    /** Saves a picture of the page for the README. */
    private static void picture(String name) throws Exception {
        Files.createDirectories(PICTURES);
        Files.write(PICTURES.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    }

    /** A push consumer of the group on the topic, from the first offset, with the given answer to every message. */
    private PushConsumer consume(String group, String topic, ConsumeConcurrentlyStatus answer, AtomicInteger seen)
            throws Exception {
        consumer = new PushConsumer(group, clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setMaxReconsumeTimes(1);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            seen.addAndGet(msgs.size());
            return answer;
        });
        consumer.start();
        return consumer;
    }

    /** Answers the page's confirmation prompt by typing {@code typed}. */
    private void confirmWith(String typed) {
        var prompt = waiting().until(ExpectedConditions.alertIsPresent());
        prompt.sendKeys(typed);
        prompt.accept();
    }

    @Test
    void theOverviewShowsTheBrokersVersionUptimeDiskAndWhatItHoldsBack() throws Exception {
        createTopic("browser-later");
        Message later = new Message("browser-later", "in an hour".getBytes(StandardCharsets.UTF_8));
        later.setDelayTimeLevel(4);
        producer().send(later);
        reloadUntilText("cluster", By.id("held-back"), "browser-broker");
        WebElement brokers = driver.findElement(By.id("brokers"));
        assertThat(brokers.getText()).contains("browser-broker").contains(broker.address()).contains("MASTER")
                .contains("clean at 85 %, refuse at 90 %").containsPattern("\\d+(\\.\\d)? [KMGT]?i?B of ");
        assertThat(driver.findElement(By.id("namesrv")).getText()).contains(nameServer.address());
        assertThat(driver.findElement(By.id("error")).isDisplayed()).isFalse();
        picture("console-overview");

        driver.findElement(By.id("nav-pending")).click();
        WebElement levels = waiting().until(ExpectedConditions.presenceOfElementLocated(
                By.id("scheduled-browser-broker-0")));
        // level, delay, pending, and the age of the oldest pending message
        assertThat(levels.findElements(By.cssSelector("tbody tr")).get(3).getText())
                .matches("4 1 h 0 min 1 \\d.*");
        assertThat(driver.findElement(By.id("half-messages")).getText()).contains("browser-broker");
    }

    @Test
    void aTopicCreatedInThePageIsListed() {
        open("topics");
        WebElement name = waiting().until(ExpectedConditions.elementToBeClickable(By.id("new-topic")));
        name.sendKeys("browser-made");
        WebElement queues = driver.findElement(By.name("queues"));
        queues.clear();
        queues.sendKeys("3");
        driver.findElement(By.cssSelector("#create-topic button")).click();
        waiting().until(ExpectedConditions.textToBe(By.id("notice"), "Topic browser-made created."));
        broker.registerWithNameServers().join();
        reloadUntilText("topics", By.id("topics"), "browser-made");

        driver.findElement(By.linkText("browser-made")).click();
        waiting().until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("main"), "3 queue(s) on"));
    }

    @Test
    void aMessageIsFoundByKeyAndItsBodyPreviewed() throws Exception {
        createTopic("browser-orders");
        producer().send(new Message("browser-orders", "Paid", "order-8080",
                "{\"order\":8080,\"paid\":true}".getBytes(StandardCharsets.UTF_8)));
        open("messages");
        waiting().until(ExpectedConditions.elementToBeClickable(By.id("key-topic"))).sendKeys("browser-orders");
        driver.findElement(By.id("key")).sendKeys("order-8080");
        // the key index is written a moment after the send: ask again until the page finds it
        waiting().pollingEvery(Duration.ofMillis(300)).until(d -> {
            d.findElement(By.cssSelector("#by-key button")).click();
            return !d.findElements(By.id("found")).isEmpty();
        });
        WebElement found = driver.findElement(By.id("found"));
        assertThat(found.getText()).contains("order-8080").contains("application/json");

        found.findElement(By.linkText("view")).click();
        WebElement body = waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("body")));
        assertThat(body.getText()).isEqualTo("{\"order\":8080,\"paid\":true}");
        assertThat(driver.findElement(By.id("trace")).getText()).contains("sent").contains("stored");
    }

    @Test
    void deletingATopicWithoutTypingItsNameIsRefusedInThePage() throws Exception {
        createTopic("browser-keep");
        reloadUntilText("topics", By.id("topics"), "browser-keep");
        driver.findElement(By.cssSelector("[data-delete='browser-keep']")).click();
        var prompt = waiting().until(ExpectedConditions.alertIsPresent());
        assertThat(prompt.getText()).contains("Type the topic name to confirm");
        prompt.sendKeys("browser-kept");
        prompt.accept();

        WebElement error = waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("error")));
        assertThat(error.getText()).contains("confirm").contains("browser-keep");
        assertThat(driver.findElement(By.id("notice")).isDisplayed()).isFalse();
        // still there, in the cluster and on the page
        AdminClient admin = new AdminClient(clientConfig());
        admin.start();
        try {
            assertThat(admin.topics()).contains("browser-keep");
        } finally {
            admin.shutdown();
        }
        assertThat(driver.findElement(By.id("topics")).getText()).contains("browser-keep");
    }

    @Test
    void aTopicsTpsChartIsDrawnAndRisesWhileAProducerRuns() throws Exception {
        createTopic("browser-tps");
        Producer p = producer();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread sender = new Thread(() -> {
            while (running.get()) {
                try {
                    p.send(new Message("browser-tps", "tick".getBytes(StandardCharsets.UTF_8)));
                } catch (Exception e) {
                    return;
                }
            }
        });
        sender.start();
        try {
            reloadUntilText("topic/browser-tps", By.tagName("main"), "queue(s) on");
            // the page redraws the chart as samples come; wait for a line above zero
            waiting().until(d -> Boolean.TRUE.equals(((JavascriptExecutor) d).executeScript(
                    "const c = Chart.getChart('tps-chart');"
                    + " return !!c && c.data.datasets[0].data.length >= 3"
                    + " && c.getDatasetMeta(0).data.some(p => p.y < c.chartArea.bottom - 2);")));
            Number blue = (Number) ((JavascriptExecutor) driver).executeScript(
                    "const c = document.getElementById('tps-chart');"
                    + " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;"
                    + " for (let i = 0; i < d.length; i += 4) {"
                    + "   if (d[i + 3] > 0 && d[i + 2] > 180 && d[i] < 100 && d[i + 1] > 70 && d[i + 1] < 160) { n++; } }"
                    + " return n;");
            assertThat(blue.intValue()).as("pixels of the line's colour on the canvas").isGreaterThan(30);
            picture("console-topic");
        } finally {
            running.set(false);
            sender.join(10_000);
        }
        assertThat(Double.parseDouble(driver.findElement(By.id("tps-chart")).getDomAttribute("data-last")))
                .isGreaterThanOrEqualTo(0);
    }

    @Test
    void aDeadLetterIsResentFromThePageAndLeavesTheList() throws Exception {
        createTopic("browser-payments");
        producer().send(new Message("browser-payments", "poison".getBytes(StandardCharsets.UTF_8)));
        consume("browser-refunds", "browser-payments", ConsumeConcurrentlyStatus.RECONSUME_LATER, new AtomicInteger());
        reloadUntilText("dlq/browser-refunds", By.id("letters"), "Resend all (1)");
        consumer.shutdown();
        consumer = null;
        picture("console-dlq");

        driver.findElement(By.cssSelector("[data-resend]")).click();
        confirmWith("browser-refunds");
        waiting().until(ExpectedConditions.textToBe(By.id("notice"), "Resent."));
        waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("no-letters")));
        assertThat(driver.findElement(By.id("error")).isDisplayed()).isFalse();
    }

    @Test
    void resettingAGroupsOffsetInThePageChangesItsLag() throws Exception {
        createTopic("browser-audit");
        Producer p = producer();
        for (int i = 0; i < 6; i++) {
            p.send(new Message("browser-audit", ("event " + i).getBytes(StandardCharsets.UTF_8)));
        }
        AtomicInteger seen = new AtomicInteger();
        consume("browser-auditors", "browser-audit", ConsumeConcurrentlyStatus.CONSUME_SUCCESS, seen);
        await().atMost(WAIT).until(() -> seen.get() >= 6);
        consumer.shutdown(); // saves its offsets
        consumer = null;
        reloadUntilText("group/browser-auditors", By.id("group-lag"), "0");

        new Select(driver.findElement(By.id("reset-topic"))).selectByVisibleText("browser-audit");
        WebElement to = driver.findElement(By.id("reset-to"));
        to.clear();
        to.sendKeys("earliest");
        driver.findElement(By.cssSelector("#reset button")).click();
        confirmWith("browser-auditors");
        waiting().until(ExpectedConditions.textToBe(By.id("notice"), "Offsets of browser-auditors reset."));
        reloadUntilText("group/browser-auditors", By.id("group-lag"), "6");
        assertThat(driver.findElement(By.id("lag-table")).getText()).contains("browser-audit");
        waiting().until(d -> "6".equals(d.findElement(By.id("lag-chart")).getDomAttribute("data-last")));
        picture("console-group-lag");
    }

    @Test
    void aWrongPasswordIsRefusedAndAReadOnlyUserSeesButCannotChange() throws Exception {
        createTopic("browser-readonly");
        open("cluster");
        waiting().until(ExpectedConditions.elementToBeClickable(By.id("logout"))).click();
        signedIn = null;
        WebElement name = waiting().until(ExpectedConditions.elementToBeClickable(By.id("login-user")));
        name.sendKeys(TestUsers.VIEWER);
        driver.findElement(By.id("login-password")).sendKeys("not-the-password");
        driver.findElement(By.id("login-button")).click();
        new WebDriverWait(driver, SIGN_IN_WAIT).until(ExpectedConditions.textToBe(By.id("error"),
                "Sign-in failed: unknown user or wrong password."));
        assertThat(driver.findElement(By.id("who")).isDisplayed()).isFalse();

        signIn(TestUsers.VIEWER, TestUsers.VIEWER_PASSWORD);
        assertThat(driver.findElement(By.id("who-name")).getText()).isEqualTo("viewer (read-only)");
        reloadUntilText("topics", By.id("topics"), "browser-readonly");
        assertThat(driver.findElement(By.id("create-topic")).isDisplayed()).isFalse();
        assertThat(driver.findElements(By.cssSelector("[data-delete]"))).allSatisfy(b ->
                assertThat(b.isDisplayed()).isFalse());
        // the page hides what the role may not do; the console refuses it anyway, with a sentence
        Object answer = ((JavascriptExecutor) driver).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                + " api('/topics/browser-readonly?confirm=browser-readonly', {method: 'DELETE'})"
                + "   .then(() => done('deleted'), e => done(e.message));");
        assertThat(String.valueOf(answer)).contains("User 'viewer' is read-only");
        reloadUntilText("topics", By.id("topics"), "browser-readonly");
    }
}
