package dev.wharf.spring.listener;

import dev.wharf.common.message.MessageExt;
import dev.wharf.spring.annotation.MessageListener;
import dev.wharf.spring.annotation.MessageListeners;
import dev.wharf.spring.support.WharfHeaders;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.messaging.Message;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.handler.annotation.support.DefaultMessageHandlerMethodFactory;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.messaging.handler.invocation.InvocableHandlerMethod;

/**
 * Finds the {@link MessageListener} methods of every bean, checks their attributes as each bean is initialised (a
 * wrong one fails that bean's creation with a {@link ListenerDefinitionException}), and registers a container per
 * annotation with the {@link MessageListenerRegistry} once all singletons exist.
 */
public final class MessageListenerAnnotationBeanPostProcessor
        implements BeanPostProcessor, BeanFactoryAware, EnvironmentAware, SmartInitializingSingleton {

    /** The converter listeners use unless their annotation names another. */
    public static final String DEFAULT_CONVERTER = "wharfMessageConverter";

    private record Pending(ListenerEndpoint endpoint, Object bean) {
    }

    private ConfigurableListableBeanFactory beanFactory;
    private Environment environment;
    private final Set<Class<?>> withoutListeners = ConcurrentHashMap.newKeySet();
    private final List<Pending> pending = new ArrayList<>();
    private final Map<String, ListenerEndpoint> groups = new HashMap<>();
    private final Map<String, ListenerEndpoint> ids = new HashMap<>();
    /** Set once all singletons exist: a bean initialised later (lazy) registers its listeners at once. */
    private boolean singletonsReady;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> type = AopUtils.getTargetClass(bean);
        if (withoutListeners.contains(type)) {
            return bean;
        }
        Map<Method, Set<MessageListener>> annotated = MethodIntrospector.selectMethods(type,
                (MethodIntrospector.MetadataLookup<Set<MessageListener>>) method -> {
                    Set<MessageListener> found = AnnotatedElementUtils.getMergedRepeatableAnnotations(method,
                            MessageListener.class, MessageListeners.class);
                    return found.isEmpty() ? null : found;
                });
        if (annotated.isEmpty()) {
            withoutListeners.add(type);
            return bean;
        }
        ListenerDefinitions definitions = new ListenerDefinitions(environment::resolveRequiredPlaceholders,
                name -> beanFactory.containsBean(name) && beanFactory.isTypeMatch(name, MessageConverter.class));
        for (Map.Entry<Method, Set<MessageListener>> e : annotated.entrySet()) {
            int index = 0;
            for (MessageListener a : e.getValue()) {
                ListenerEndpoint endpoint = definitions.define(beanName, e.getKey(), a, index++, DEFAULT_CONVERTER);
                claim(endpoint);
                addPending(new Pending(endpoint, bean));
            }
        }
        if (isSingletonsReady()) {
            afterSingletonsInstantiated();
        }
        return bean;
    }

    /** A consumer group and an id belong to one listener of the application. */
    private synchronized void claim(ListenerEndpoint endpoint) {
        ListenerEndpoint sameGroup = groups.putIfAbsent(endpoint.consumerGroup(), endpoint);
        if (sameGroup != null) {
            throw new ListenerDefinitionException(endpoint.beanName(), endpoint.method(), "consumerGroup",
                    endpoint.consumerGroup(), "the group is already consumed by " + sameGroup.describe() + "; the"
                    + " members of a group must subscribe alike, so give each listener its own group.");
        }
        ListenerEndpoint sameId = ids.putIfAbsent(endpoint.id(), endpoint);
        if (sameId != null) {
            throw new ListenerDefinitionException(endpoint.beanName(), endpoint.method(), "id", endpoint.id(),
                    "the id is already used by " + sameId.describe() + "; give each listener its own id.");
        }
    }

    private synchronized void addPending(Pending p) {
        pending.add(p);
    }

    private synchronized boolean isSingletonsReady() {
        return singletonsReady;
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<Pending> toRegister;
        synchronized (this) {
            singletonsReady = true;
            toRegister = new ArrayList<>(pending);
            pending.clear();
        }
        if (toRegister.isEmpty()) {
            return;
        }
        MessageListenerRegistry registry = beanFactory.getBean(MessageListenerRegistry.class);
        Map<String, DefaultMessageHandlerMethodFactory> factories = new HashMap<>();
        for (Pending p : toRegister) {
            ListenerEndpoint endpoint = p.endpoint();
            MessageConverter converter = beanFactory.getBean(endpoint.messageConverter(), MessageConverter.class);
            DefaultMessageHandlerMethodFactory factory = factories.computeIfAbsent(endpoint.messageConverter(),
                    name -> methodFactory(converter));
            Method invocable = AopUtils.selectInvocableMethod(endpoint.method(), p.bean().getClass());
            InvocableHandlerMethod handler = factory.createInvocableHandlerMethod(p.bean(), invocable);
            registry.register(endpoint, handler, converter);
        }
    }

    private DefaultMessageHandlerMethodFactory methodFactory(MessageConverter converter) {
        DefaultMessageHandlerMethodFactory factory = new DefaultMessageHandlerMethodFactory();
        factory.setBeanFactory(beanFactory);
        factory.setMessageConverter(converter);
        factory.setCustomArgumentResolvers(List.of(new MessageExtArgumentResolver()));
        factory.afterPropertiesSet();
        return factory;
    }

    /** Resolves a {@link MessageExt} parameter to the received message itself. */
    private static final class MessageExtArgumentResolver implements HandlerMethodArgumentResolver {

        @Override
        public boolean supportsParameter(MethodParameter parameter) {
            return MessageExt.class.isAssignableFrom(parameter.getParameterType());
        }

        @Override
        public Object resolveArgument(MethodParameter parameter, Message<?> message) {
            return message.getHeaders().get(WharfHeaders.RAW_MESSAGE);
        }
    }
}
