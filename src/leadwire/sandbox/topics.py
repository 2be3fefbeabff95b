"""Post and blog topics of the sandbox world: each topic's label (the ground truth of relevance),
varied English and Chinese wording, and which departments and sectors talk about it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Topic:
    """A subject people post about; `sentences` use the placeholders of texts.Slots."""

    label: str
    phrases: tuple[str, ...]
    sentences: tuple[str, ...]
    hashtags: tuple[str, ...]
    zh_label: str
    zh_sentences: tuple[str, ...]
    departments: frozenset[str]
    sectors: frozenset[str] = frozenset()  # empty: any sector
    off_topic: bool = False


def _t(
    label: str,
    phrases: str,
    sentences: str,
    hashtags: str,
    zh_label: str,
    zh: str,
    departments: str,
    sectors: str = "",
    off_topic: bool = False,
) -> Topic:
    return Topic(
        label,
        tuple(phrases.split("|")),
        tuple(s.strip() for s in sentences.split("|")),
        tuple(hashtags.split()),
        zh_label,
        tuple(zh.split("|")),
        frozenset(departments.split()),
        frozenset(sectors.split()),
        off_topic,
    )


_GOODS = (
    "agriculture food textiles materials chemicals metals machinery electronics automotive medical "
    "consumer wholesale retail mining"
)
_TECH = "software it_services electronics telecom finance"

TOPICS: tuple[Topic, ...] = (
    _t(
        "supply chain resilience",
        "supply chain resilience|resilient supply chains|supplier diversification",
        "Supply chain resilience is no longer a slide in a strategy deck, it is a weekly operating rhythm.|"
        "This year we moved from a single source to three qualified suppliers for {product}.|"
        "Dual sourcing cost us a little margin and saved us two months of stockouts.|"
        "The lesson from the last disruption: map your tier-2 suppliers before you need them.|"
        "We now review lead times and safety stock for every critical part every Monday.|"
        "Nearshoring part of our {product} volume cut transit time by almost half.|"
        "Resilient supply chains are built on boring data: clean master data, honest lead times, "
        "real buffers.",
        "#supplychain #resilience #procurement #operations",
        "供应链韧性",
        "供应链韧性不再只是战略文件里的一页，而是每周的运营节奏。|今年我们为{product}引入了三家合格供应商，降低了断供风险。|"
        "双源采购让我们少赚了一点利润，却避免了两个月的缺货。|提前梳理二级供应商，比出了问题再补救重要得多。",
        "operations procurement executive",
        _GOODS + " logistics",
    ),
    _t(
        "cloud cost optimisation",
        "cloud cost optimisation|cloud spend|FinOps",
        "We cut our cloud bill by {n}% last quarter without touching reliability.|"
        "Most of the savings came from rightsizing instances and deleting forgotten environments.|"
        "FinOps is a team sport: engineers need to see what their services cost every day.|"
        "Reserved capacity and spot workloads on {tech} did more than any re-architecture.|"
        "Tagging everything was painful for two weeks and paid for itself in a month.|"
        "If nobody owns the cloud spend, the cloud spend owns you.",
        "#cloud #finops #devops #engineering",
        "云成本优化",
        "上个季度我们在不影响稳定性的前提下把云成本降低了{n}%。|大部分节省来自实例规格调整和清理闲置环境。|"
        "FinOps需要工程师每天都能看到自己服务的成本。|给所有资源打标签虽然辛苦，但一个月就收回了成本。",
        "engineering it finance",
        _TECH,
    ),
    _t(
        "hiring",
        "hiring|we are hiring|growing the team",
        "We're hiring! Our {team} team in {city} is growing and we are looking for people who love "
        "{product}.|"
        "{company} is hiring for several roles in {team}, remote-friendly within {country}.|"
        "If you care about {product} and want real ownership from day one, my DMs are open.|"
        "We are growing the team: {n} open roles across engineering, sales and operations.|"
        "Great people build great products. Come build {product} with us at {company}.|"
        "Referrals welcome. We move fast and every interview gets feedback within 48 hours.",
        "#hiring #jobs #careers #werehiring",
        "招聘",
        "我们正在招聘！{city}的{team}团队正在扩张。|{company}多个岗位开放，欢迎推荐。|"
        "如果你对{product}感兴趣，欢迎私信我。|我们团队正在快速成长，目前有{n}个开放职位。",
        "hr executive",
    ),
    _t(
        "trade fair",
        "trade fair|trade show|exhibition",
        "See you at {fair}! Our team will be at the {company} booth all week.|"
        "Three days at {fair}, more than {n} conversations and a notebook full of follow-ups.|"
        "Trade fairs still beat any digital channel for meeting buyers of {product} face to face.|"
        "We will show our latest {product} at {fair}. Drop by the booth for a live demo.|"
        "Back from {fair}: demand for {product} is clearly picking up in {country}.|"
        "Tip for exhibitors: book meetings before the show, the walk-ins are a bonus.",
        "#tradefair #tradeshow #exhibition #b2b",
        "展会",
        "{fair}见！{company}团队整周都在展位。|三天展会，{n}多场交流，收获满满。|"
        "面对面交流仍是接触{product}买家的最好方式。|我们将在{fair}展示最新的{product}，欢迎来展位参观。",
        "sales marketing executive",
        _GOODS,
    ),
    _t(
        "product launch",
        "product launch|new release|launch day",
        "Launch day! Today we are releasing the new generation of our {product}.|"
        "After {n} months of work, the team shipped something I am genuinely proud of.|"
        "The new release is faster, simpler to deploy and built on what customers told us.|"
        "We tested the launch with twenty customers before announcing anything publicly.|"
        "A product launch is a promise: now the real work of adoption starts.|"
        "Huge thanks to the {team} team at {company} for getting this over the line.",
        "#productlaunch #newproduct #innovation",
        "新品发布",
        "发布日！今天我们推出了新一代{product}。|经过{n}个月的努力，团队交付了一款我非常自豪的产品。|"
        "新版本更快、更易部署，来自客户的真实反馈。|感谢{company}{team}团队的全力以赴。",
        "product marketing engineering executive",
    ),
    _t(
        "AI in sales",
        "AI in sales|AI for sales teams|sales automation with AI",
        "AI in sales is not about replacing reps, it is about giving them back four hours a week.|"
        "We let an AI assistant draft first-touch emails; reps edit and send. Reply rates went up {n}%.|"
        "Account research that took thirty minutes now takes three, and the notes are better.|"
        "The teams winning with AI for sales are the ones with clean CRM data.|"
        "Our rule: AI drafts, humans decide. Nothing reaches a buyer unread.|"
        "Forecasting with AI made our pipeline reviews shorter and more honest.",
        "#ai #sales #salesautomation #revops",
        "AI销售",
        "AI不是取代销售，而是让销售每周多出四个小时。|我们用AI起草首封邮件，回复率提升了{n}%。|"
        "过去需要半小时的客户调研，现在三分钟就能完成。|AI负责起草，人来做决定。",
        "sales marketing executive",
    ),
    _t(
        "cybersecurity",
        "cybersecurity|security awareness|zero trust",
        "Phishing simulations this quarter: click rate down from {n}% to under 3%.|"
        "Zero trust is a journey, not a product you buy from a vendor.|"
        "We rolled out hardware keys for every admin account at {company}. No regrets.|"
        "Most breaches still start with a password. Turn on MFA everywhere.|"
        "Security awareness training works when it is short, frequent and a bit fun.|"
        "Patch management is unglamorous and it is the best control we have.",
        "#cybersecurity #infosec #zerotrust",
        "网络安全",
        "本季度钓鱼演练的点击率从{n}%降到了3%以下。|零信任是一段旅程，而不是一款产品。|"
        "大多数安全事件仍然从密码开始，请开启多因素认证。|补丁管理不起眼，却是最有效的控制措施。",
        "it engineering legal",
        _TECH + " finance health",
    ),
    _t(
        "sustainability",
        "sustainability|decarbonisation|net zero",
        "We published our first emissions report this year, scope 1, 2 and the hard part of scope 3.|"
        "Switching our {city} site to renewable power cut emissions by {n}%.|"
        "Customers now ask about the carbon footprint of {product} in almost every tender.|"
        "Decarbonisation is a procurement topic as much as an engineering one.|"
        "Net zero targets mean nothing without a yearly plan and a budget.|"
        "Less packaging, fewer empty kilometres, more reuse: small steps add up.",
        "#sustainability #netzero #esg",
        "可持续发展",
        "今年我们发布了第一份碳排放报告。|{city}工厂改用可再生电力后，排放下降了{n}%。|"
        "几乎每个招标都会问到{product}的碳足迹。|减碳既是工程问题，也是采购问题。",
        "operations executive procurement",
        _GOODS + " logistics energy",
    ),
    _t(
        "customer success",
        "customer success|customer retention|onboarding",
        "Net revenue retention is the number I look at first every Monday.|"
        "The best onboarding is the one the customer barely notices.|"
        "We call every new customer in week two, before anything can go wrong.|"
        "Churn rarely surprises you if you read the support tickets.|"
        "Customer success is a product feedback loop with a phone number.|"
        "This quarter {n} customers expanded their contracts, all of them after a business review.",
        "#customersuccess #cx #retention #saas",
        "客户成功",
        "每周一我最先看的是客户留存率。|最好的客户上线体验是客户几乎感觉不到。|"
        "认真阅读工单，客户流失就很少让人意外。|本季度有{n}位客户扩大了合同。",
        "support sales product",
    ),
    _t(
        "leadership",
        "leadership|leading teams|management",
        "The best leaders I worked with asked more questions than they answered.|"
        "{n} years in {industry} taught me that trust is built in small, boring moments.|"
        "As a manager, my job is to remove obstacles, not to have all the answers.|"
        "Hard conversations early are kinder than surprises late.|"
        "Leading a team through change means repeating the why until you are tired of it.|"
        "Hire people smarter than you, then get out of their way.",
        "#leadership #management #teams",
        "领导力",
        "我遇到的最好的领导者，提问比回答多。|在{industry}行业的{n}年让我明白，信任来自点滴。|"
        "管理者的工作是扫清障碍，而不是给出所有答案。|早一点进行艰难对话，比后来的意外更友善。",
        "executive operations sales engineering finance hr",
    ),
    _t(
        "fundraising",
        "fundraising|funding round|investors",
        "Big news: {company} closed its funding round to scale {product} across {country} and beyond.|"
        "Fundraising took {n} months, eighty meetings and more patience than I thought I had.|"
        "We chose investors who understand {industry}, not just the highest valuation.|"
        "The round lets us double the engineering team and open our first office abroad.|"
        "Advice to founders: raise when you do not need to.|"
        "Grateful to our customers; their results made the investor conversations easy.",
        "#fundraising #startup #venturecapital",
        "融资",
        "好消息：{company}完成新一轮融资，将加速{product}的发展。|这轮融资历时{n}个月。|"
        "我们选择了懂{industry}的投资人，而不只是估值最高的。|感谢客户，是你们的成果让融资顺利。",
        "executive finance",
        _TECH + " medical consulting",
    ),
    _t(
        "export growth",
        "export growth|international expansion|new markets",
        "Exports now account for {n}% of our revenue, up from a third three years ago.|"
        "Our {product} just landed its first customers in {country}.|"
        "Entering a new market starts with one good distributor and a lot of listening.|"
        "Customs paperwork is where export plans go to die. Get a good broker.|"
        "International expansion taught us to localise the offer, not just the brochure.|"
        "We shipped to {n} countries this year, each with its own rules and its own surprises.",
        "#export #internationaltrade #growth",
        "出口增长",
        "出口已占我们收入的{n}%。|我们的{product}刚刚在{country}拿下首批客户。|"
        "进入新市场，先找一个好的经销商。|今年我们向{n}个国家发货。",
        "sales executive operations",
        _GOODS,
    ),
    _t(
        "digital transformation",
        "digital transformation|ERP migration|digitalisation",
        "Our ERP migration to {tech} went live last week after eighteen months of work.|"
        "Digital transformation is ninety percent change management and ten percent software.|"
        "We replaced {n} spreadsheets with one workflow. Nobody misses them.|"
        "Start with the process, then pick the tool, never the other way round.|"
        "Digitalisation made our month-end close three days shorter.|"
        "The hardest part of going digital was agreeing on one definition of a customer.",
        "#digitaltransformation #erp #digitalisation",
        "数字化转型",
        "我们的ERP迁移到{tech}，上周正式上线。|数字化转型九成是变革管理，一成是软件。|"
        "我们用一个流程替代了{n}张表格。|先梳理流程，再选择工具。",
        "it executive operations finance",
    ),
    _t(
        "data engineering",
        "data engineering|data pipelines|analytics engineering",
        "We moved our pipelines to {tech} and cut nightly runtime from hours to minutes.|"
        "Data quality checks are unit tests for your business.|"
        "A good data model outlives every dashboard built on top of it.|"
        "We process {n} million events a day, and the boring parts matter most.|"
        "Analytics engineering bridges the gap between raw tables and decisions.|"
        "Schema changes without contracts are how data teams lose weekends.",
        "#dataengineering #analytics #data",
        "数据工程",
        "我们把数据管道迁移到{tech}，夜间任务从数小时缩短到几分钟。|数据质量检查就是业务的单元测试。|"
        "好的数据模型比任何看板都长寿。|我们每天处理{n}百万条事件。",
        "engineering it product",
        _TECH,
    ),
    _t(
        "financial planning",
        "financial planning|FP&A|budgeting",
        "Rolling forecasts replaced our annual budget and nobody wants to go back.|"
        "FP&A is most useful when it tells the business something it does not want to hear.|"
        "We closed the books in {n} days this quarter, a record for {company}.|"
        "Cash is a fact, profit is an opinion. Watch working capital.|"
        "Scenario planning took the drama out of this year's board meetings.|"
        "Good budgeting starts with drivers, not with last year plus five percent.",
        "#finance #fpa #cfo",
        "财务规划",
        "滚动预测取代了年度预算。|本季度我们用{n}天完成结账，创下纪录。|"
        "现金是事实，利润是观点。|好的预算从业务驱动因素出发。",
        "finance executive",
    ),
    _t(
        "compliance",
        "compliance|regulation|data protection",
        "New reporting rules take effect next year and we started preparing in January.|"
        "Compliance done well is invisible to customers and obvious to auditors.|"
        "We mapped every personal data flow at {company}; there were {n} we did not know about.|"
        "Export controls now shape which markets we can serve with {product}.|"
        "Good policies are short enough that people actually read them.|"
        "Regulation is a design constraint, not an afterthought.",
        "#compliance #gdpr #regulation",
        "合规",
        "新的报告规则明年生效，我们从一月就开始准备。|做得好的合规，客户看不见，审计一眼就懂。|"
        "我们梳理了{company}所有个人数据流，发现了{n}个此前不知道的。|好的制度要短到大家愿意读完。",
        "legal finance it",
    ),
    _t(
        "employer branding",
        "employer branding|company culture|team culture",
        "Our culture is what we do when nobody is watching, not what is on the website.|"
        "We asked the team what they love about working at {company}. Flexibility won.|"
        "Employer branding starts with onboarding, not with a video.|"
        "{n} nationalities in one office in {city}, and lunch is the best meeting of the day.|"
        "Glassdoor reviews are free feedback. We read every single one.|"
        "People stay for the people.",
        "#culture #employerbranding #teamwork",
        "雇主品牌",
        "文化是没人看着时我们的做法。|我们问团队最喜欢{company}什么，答案是灵活。|"
        "雇主品牌从入职体验开始。|{city}办公室有{n}个国籍的同事。",
        "hr marketing executive",
    ),
    _t(
        "manufacturing automation",
        "manufacturing automation|smart factory|industrial automation",
        "We automated the last manual step on our {product} line; output is up {n}%.|"
        "A smart factory is only as smart as its maintenance schedule.|"
        "Cobots took over the repetitive work and our operators moved to quality control.|"
        "Connecting old machines to {tech} was harder than buying new ones and much cheaper.|"
        "OEE went from sixty to seventy-eight percent in a year, mostly by fixing small stops.|"
        "Automation is a people project: train first, install second.",
        "#manufacturing #automation #industry40",
        "智能制造",
        "我们把{product}产线最后一道手工工序自动化了，产量提升{n}%。|智能工厂离不开科学的维护计划。|"
        "协作机器人承担了重复劳动，操作员转向质量控制。|自动化首先是人的项目。",
        "engineering operations",
        "machinery electronics automotive metals materials chemicals medical consumer food",
    ),
    _t(
        "logistics costs",
        "logistics costs|freight rates|shipping costs",
        "Freight rates on our main lane dropped {n}% since spring. Time to renegotiate.|"
        "We consolidated shipments and cut logistics costs per pallet significantly.|"
        "Ocean or air? For {product} the answer changed three times this year.|"
        "Visibility tools like {tech} paid off the first time a container went missing.|"
        "Demurrage charges are the silent killer of logistics budgets.|"
        "Shipping costs are a design decision: packaging, pallet size and order frequency.",
        "#logistics #freight #shipping #supplychain",
        "物流成本",
        "我们主要航线的运价自春季以来下降了{n}%。|通过合并发货，我们显著降低了每托盘的物流成本。|"
        "海运还是空运？对于{product}，今年答案变了三次。|滞港费是物流预算的隐形杀手。",
        "operations procurement sales",
        "logistics wholesale retail " + _GOODS,
    ),
    _t(
        "B2B marketing",
        "B2B marketing|demand generation|account-based marketing",
        "Account-based marketing finally clicked for us when sales and marketing shared one list.|"
        "Our best performing content this year was a plain spreadsheet template about {product}.|"
        "Demand generation beats lead generation: {n}% of our pipeline now comes inbound.|"
        "Webinars are not dead, boring webinars are.|"
        "Case studies with real numbers outperform every other asset we produce.|"
        "Know your buyer committee: in {industry} it is rarely one person.",
        "#b2bmarketing #demandgen #abm",
        "B2B营销",
        "当销售和市场共用一份客户名单时，ABM终于奏效。|今年效果最好的内容是一份关于{product}的表格模板。|"
        "{n}%的商机来自主动咨询。|有真实数据的客户案例最有说服力。",
        "marketing sales",
    ),
    _t(
        "personal",
        "weekend|personal news|life outside work",
        "Finished my first half marathon this weekend. Slow, happy, sore.|"
        "Two weeks offline with the family. Highly recommend it.|"
        "Reading list for the holidays: three novels and zero business books.|"
        "Sunday hike above {city} with the best view of the year.|"
        "Started learning the piano at {n}. Humbling in the best way.",
        "#weekend #life #balance",
        "生活",
        "周末完成了人生第一个半程马拉松。|和家人一起离线两周，强烈推荐。|"
        "周日在{city}徒步，看到了今年最美的风景。",
        "",
        off_topic=True,
    ),
    _t(
        "congratulations",
        "congratulations|well deserved|proud of the team",
        "Congratulations to my colleague on a well-deserved promotion!|"
        "So proud of the {team} team at {company} for winning this year's award.|"
        "Congrats to everyone who made this quarter happen. Well deserved.|"
        "Huge congratulations on the new role. {company} is lucky to have you.|"
        "Celebrating {n} years of {company} today. Thank you to every customer and colleague.",
        "#congratulations #proud #team",
        "祝贺",
        "祝贺同事升职，实至名归！|为{company}{team}团队获奖感到骄傲。|今天是{company}成立{n}周年，感谢每一位客户和同事。",
        "",
        off_topic=True,
    ),
    _t(
        "work anniversary",
        "work anniversary|years at the company|milestone",
        "Today marks {n} years at {company}. Still learning every week.|"
        "Work anniversary! Grateful for the people who make {company} a great place to work.|"
        "{n} years ago I joined a small team in {city}. What a ride.|"
        "Another year at {company}, another year of great colleagues and hard problems.",
        "#workanniversary #grateful",
        "入职周年",
        "今天是我加入{company}的第{n}年。|入职周年纪念！感谢让{company}成为好地方的每一位同事。",
        "",
        off_topic=True,
    ),
)


@cache
def topics_for(department: str, sector: str) -> tuple[Topic, ...]:
    """On-topic subjects a person of this department and sector would post about."""
    out = tuple(
        t
        for t in TOPICS
        if not t.off_topic and department in t.departments and (not t.sectors or sector in t.sectors)
    )
    if out:
        return out
    return tuple(t for t in TOPICS if not t.off_topic and not t.sectors)
