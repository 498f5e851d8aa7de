# Wharf standalone server (a NameServer and a broker in one process) from the binary archive.
#
#   mvn -B package -DskipTests          # builds distribution/target/wharf-VERSION-bin.tar.gz
#   docker build --build-arg WHARF_VERSION=0.1.0-SNAPSHOT -t wharf .
#   docker run -p 9876:9876 -p 10911:10911 -v wharf-store:/var/lib/wharf/store wharf
#
# Not built or tested by the project's CI (its machines have no container runtime); the archive it unpacks is
# what the build tests. Clients on other hosts need the broker's reachable address: mount a broker.conf with
# brokerIP1 set at /opt/wharf/conf/broker.conf.
FROM eclipse-temurin:17-jre

ARG WHARF_VERSION=0.1.0-SNAPSHOT

RUN groupadd --system wharf \
    && useradd --system --gid wharf --home-dir /var/lib/wharf --shell /usr/sbin/nologin wharf

COPY distribution/target/wharf-${WHARF_VERSION}-bin.tar.gz /opt/wharf-bin.tar.gz
RUN mkdir -p /opt/wharf \
    && tar -xzf /opt/wharf-bin.tar.gz -C /opt/wharf --strip-components=1 \
    && rm /opt/wharf-bin.tar.gz \
    && mkdir -p /var/lib/wharf/store /var/log/wharf /run/wharf \
    && chown -R wharf:wharf /var/lib/wharf /var/log/wharf /run/wharf

ENV WHARF_HOME=/opt/wharf \
    WHARF_LOG_DIR=/var/log/wharf \
    WHARF_PID_DIR=/run/wharf \
    WHARF_HEAP=1g

USER wharf
VOLUME ["/var/lib/wharf/store", "/var/log/wharf"]
EXPOSE 9876 10911

# healthy while the NameServer answers (wharf admin exits 3 when it cannot reach it) and lists a broker
HEALTHCHECK --interval=30s --timeout=20s --start-period=30s --retries=3 \
    CMD out=$(/opt/wharf/bin/wharf admin brokers) && ! echo "$out" | grep -q "No broker is registered"

# exec form: docker stop sends SIGTERM to the JVM (bin/wharf execs java), which stops gracefully
ENTRYPOINT ["/opt/wharf/bin/wharf"]
CMD ["standalone", "--bind", "0.0.0.0", "--store", "/var/lib/wharf/store"]
