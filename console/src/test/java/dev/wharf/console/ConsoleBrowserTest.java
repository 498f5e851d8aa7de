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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The console's pages in a real browser: Selenium drives headless Chromium against the console running on a free
 * port, which reads a real NameServer and broker in this JVM. Everything a test checks is what the page shows.
 * Skipped, saying how to install them, when Chromium or chromedriver is missing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"wharf.console.sample-interval=200ms", "server.address=127.0.0.1"})
class ConsoleBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Path CHROMEDRIVER = Path.of(System.getProperty("wharf.test.chromedriver",
            "/usr/bin/chromedriver"));
    private static final Path CHROMIUM = Path.of(System.getProperty("wharf.test.chromium", "/usr/bin/chromium"));
    private static final Path SCREENSHOTS = Path.of("target", "browser-screenshots");

    private static Path dir;
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
        broker = new Broker(s);
        broker.start();
        broker.registerWithNameServers().join();

        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // root in a container: Chromium's sandbox cannot start there, and /dev/shm is often tiny
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    @DynamicPropertySource
    static void namesrv(DynamicPropertyRegistry registry) {
        registry.add("wharf.console.namesrv", () -> nameServer.address());
    }

    @AfterAll
    static void stopClusterAndBrowser() throws Exception {
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

    @Test
    void theClusterPageListsTheBroker() {
        open("cluster");
        WebElement brokers = waiting().until(ExpectedConditions.presenceOfElementLocated(By.id("brokers")));
        assertThat(brokers.getText()).contains("browser-broker").contains(broker.address()).contains("MASTER");
        assertThat(driver.findElement(By.id("namesrv")).getText()).contains(nameServer.address());
        assertThat(driver.findElement(By.id("error")).isDisplayed()).isFalse();
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
    void aGroupsLagIsShownAfterSends() throws Exception {
        createTopic("browser-lag");
        Producer p = producer();
        for (int i = 0; i < 4; i++) {
            p.send(new Message("browser-lag", ("early " + i).getBytes(StandardCharsets.UTF_8)));
        }
        AtomicInteger consumed = new AtomicInteger();
        consumer = new PushConsumer("browser-lag-group", clientConfig());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("browser-lag", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            consumed.addAndGet(msgs.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        await().atMost(WAIT).until(() -> consumed.get() >= 4);
        consumer.shutdown(); // saves its offsets: from here on every send is lag
        consumer = null;
        reloadUntilText("group/browser-lag-group", By.id("group-lag"), "0");

        for (int i = 0; i < 5; i++) {
            p.send(new Message("browser-lag", ("late " + i).getBytes(StandardCharsets.UTF_8)));
        }
        reloadUntilText("group/browser-lag-group", By.id("group-lag"), "5");
        assertThat(driver.findElement(By.id("lag-table")).getText()).contains("browser-lag").contains("browser-broker");
        waiting().until(d -> !d.findElement(By.id("lag-chart")).getDomAttribute("data-points").equals("0"));
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
}
