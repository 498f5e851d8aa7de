package dev.wharf.spring.boot.transaction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.jms.core.JmsTemplate;

/**
 * Makes Spring Boot's {@code jmsTemplate} use transacted sessions unless the application set
 * {@code spring.jms.template.session.transacted} itself. Inside a Spring-managed transaction, a transacted
 * JmsTemplate binds its session to that transaction and commits it only after the transaction commits (closing it
 * without commit, that is rolling back, otherwise), and a Wharf transacted session sends half messages: that is
 * what makes {@code @Transactional} + {@code JmsTemplate} atomic. Outside a transaction the template commits after
 * each send.
 *
 * <p>Only the bean Boot creates (named {@value #BOOT_TEMPLATE}) is changed: a JmsTemplate the application defines
 * itself keeps the settings it was given.
 */
public final class TransactedJmsTemplatePostProcessor implements BeanPostProcessor, EnvironmentAware {

    /** The name of the template Spring Boot's JMS auto-configuration defines. */
    public static final String BOOT_TEMPLATE = "jmsTemplate";
    static final String PROPERTY = "spring.jms.template.session.transacted";

    private static final Logger log = LoggerFactory.getLogger(TransactedJmsTemplatePostProcessor.class);

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
        if (bean instanceof JmsTemplate template && BOOT_TEMPLATE.equals(beanName)) {
            boolean explicit = environment != null && Binder.get(environment).bind(PROPERTY, Boolean.class).isBound();
            if (!explicit) {
                template.setSessionTransacted(true);
            } else if (!template.isSessionTransacted()) {
                log.warn("{}=false: messages sent with JmsTemplate inside @Transactional methods are sent at once,"
                        + " not with the database commit", PROPERTY);
            }
        }
        return bean;
    }
}
