# ruff: noqa: E501  (a data table: one line per industry reads better than wrapped phrases)
"""Everyday words for industries, each line mapped onto NAICS 2022 classes.

NAICS titles say "Depository Credit Intermediation"; people say "banks", "lenders", "银行". A
line is ``codes | phrases`` (codes separated by spaces): the phrases (English or Chinese, any
inflection the matcher does not fold itself: case, accents and plural endings) name every class
listed. Where everyday use parts from the NAICS tree, a line lists the classes people mean:
"chemicals" are the chemical classes but not pharmaceuticals, which NAICS files under chemical
manufacturing. A line marked ``broad`` gathers several industries under one word ("energy",
"health care", "consumer goods"): such a word places a company near what it asks for but never
shows that a company is in one of them. The sector schemes' own names ("Industrials", "Consumer
Staples") come from ``sector_schemes``; a phrase belongs here only when a person would type it.
"""

from __future__ import annotations

LEXICON = """
5221 | bank|banks|banking|commercial bank|retail bank|regional bank|savings bank|lender|lenders|lending|depository|credit union|银行|商业银行
522 | consumer finance|credit card|credit cards|mortgage lender|mortgages|leasing finance|信贷|消费金融
523 | investment bank|investment banking|brokerage|broker dealer|stock exchange|securities|trading firm|capital markets|asset management|asset manager|investment management|wealth management|fund manager|private equity|venture capital|hedge fund|证券|投资银行|资产管理|基金
524 | insurance|insurer|insurers|reinsurance|reinsurer|life insurance|property casualty|underwriter|underwriting|insurance broker|保险|再保险
52 | financials|finance company|finance companies|financial services|fintech|payments|payment processing|金融|金融服务|支付
525 | reit|reits|mortgage reit|trust fund|房地产投资信托
531 | real estate|property|properties|property company|property firm|property developer|property development|real estate developer|reit|reits|landlord|commercial property|residential property|homebuilder|房地产|地产|物业
2361 | homebuilder|homebuilders|homebuilding|home construction|residential construction|住宅建设
23 | construction|builder|builders|contractor|contractors|building contractor|civil engineering|infrastructure construction|engineering and construction|engineering construction|建筑|建筑工程|基建
237 | heavy construction|road construction|bridges|tunnels|civil works|基础设施
3251 3252 3253 3255 3259 | chemical|chemicals|chemical company|chemical maker|chemical manufacturing|specialty chemical|commodity chemical|petrochemical|petrochemicals|industrial gases|化工|化学
3254 | pharmaceutical|pharmaceuticals|pharma|drug|drugs|drugmaker|drugmakers|medicines|generic drugs|vaccines|制药|医药|药品|疫苗
325414 | biotech|biotechnology|biopharma|biopharmaceutical|biologics|life sciences|生物科技|生物技术|生物医药
3255 | paint|paints|coatings|adhesives|涂料
3256 | cosmetics|beauty|personal care|skincare|fragrance|fragrances|toiletries|household products|personal products|detergents|化妆品|日化
3253 | fertilizer|fertilizers|agrochemicals|crop protection|pesticides|化肥|农药
3252 | plastics resin|polymers|resins|synthetic rubber|fibres|聚合物
3344 | semiconductor|semiconductors|chip|chips|chipmaker|chipmakers|chip maker|microchips|integrated circuits|foundry|wafers|芯片|半导体|集成电路
333242 | semiconductor equipment|semiconductor machinery|wafer fab equipment|chip equipment|半导体设备
334 | electronics|electronic|electronic components|electronic equipment|hardware|computer hardware|technology hardware|consumer electronics|电子|电子产品
3341 | computers|computer|pc|servers|storage systems|计算机|电脑
3342 | telecom equipment|networking equipment|communications equipment|network equipment|computer networking|networking|通信设备
3345 | instruments|measuring instruments|test and measurement|sensors|仪器|仪表|传感器
3391 | medical devices|medical device|medical equipment|medical technology|medtech|healthcare equipment|health care equipment|medical supplies|surgical|diagnostics|医疗器械|医疗设备
334510 | medical imaging|electromedical|医学影像
335 | electrical equipment|electrical components|electrical machinery|electrical|appliances|home appliances|lighting|batteries|motors|generators|cables|电气|电器|家电|电池
3336 | engines|turbines|power transmission|gears
333 | machinery|machines|industrial machinery|machinery maker|equipment maker|industrial equipment|machine tools|robots|robotics|automation|factory automation|compressors|pumps|elevators|hvac|construction machinery|agricultural machinery|mining equipment|机械|机床|机器人|自动化|工程机械
3361 | automaker|automakers|carmaker|carmakers|car maker|car makers|car manufacturer|car manufacturers|automobiles|automobile|vehicles|motor vehicles|trucks|electric vehicles|ev|汽车|电动汽车|整车
3363 | auto parts|automotive parts|car parts|automotive supplier|automotive suppliers|automotive components|tires|tyres|汽车零部件|轮胎
3361 3362 3363 | automotive|auto|automotive industry|汽车工业
336 | transportation equipment|transport equipment
3364 | aerospace|aircraft|airplanes|jet engines|satellites|航空航天|飞机
3364 336992 | defense|defence|defense contractor|defense contractors|defence contractor|defence contractors|military|weapons|munitions|missiles|国防|军工
3366 | shipbuilding|shipbuilder|shipyards|造船
3365 | rolling stock|railcars|locomotives
331 | steel|steelmaker|steelmakers|steel producer|metals|metal|aluminium|aluminum|copper|primary metals|钢铁|钢|有色金属|铝
332 | metal products|fabricated metal|fasteners|hand tools|metalworking|五金|金属制品
212 | mining|miner|miners|mines|minerals|iron ore|gold mining|coal|coal mining|precious metals|采矿|矿业|煤炭|矿产
211 | oil|gas|oil and gas|natural gas|petroleum|crude oil|exploration and production|upstream|fossil fuels|lng|石油|天然气|油气
324 | refining|refiner|refiners|refinery|refineries|fuels|petroleum products|炼油|石化
486 | pipeline|pipelines|midstream|管道
213 | oilfield services|oil and gas equipment|oil gas equipment services|drilling|油田服务
22 | utility|utilities|multi utilities|electric utility|electric utilities|power company|power companies|power generation|electricity|independent power producers|ipps|energy utility|gas utility|water utility|water utilities|公用事业|电力|发电|水务
2211 | renewable energy|renewables|solar|wind power|wind energy|hydropower|nuclear power|clean energy|green energy|新能源|可再生能源|光伏|风电
broad 211 213 324 486 2211 | energy|energy company|energy companies|能源
31 | manufacturing|manufacturer|manufacturers|manufacturing company|manufacturing companies|industrial manufacturing|factory|factories|制造|制造业|制造商|工厂
311 | food|foods|food producer|food producers|food company|food companies|food processing|food manufacturer|packaged food|dairy|meat|snacks|confectionery|bakery|seafood|食品|乳业|肉类
311 312 | food and beverage|food and beverages|food & beverage|food and drink|食品饮料
312 | beverage|beverages|drinks|soft drinks|brewer|brewers|brewery|breweries|beer|wine|winery|spirits|distiller|distillers|tobacco|cigarettes|bottler|bottlers|饮料|啤酒|酒业|白酒|烟草
111 | agriculture|farming|crops|agribusiness|农业|种植
112 | livestock|poultry|aquaculture|畜牧|养殖
113 | forestry|timber|forest products|林业
321 | wood products|lumber|sawmill|木材
322 | pulp|packaging|paper and packaging|containers and packaging|造纸|包装
326 | plastics|plastic products|rubber|rubber products|塑料|橡胶
327 | building materials|construction materials|cement|concrete|glass|ceramics|glass and ceramics|aggregates|建材|水泥|玻璃|陶瓷
313 | textiles|textile|fabrics|yarn|纺织
315 | apparel|clothing|fashion|garments|luxury goods|luxury|footwear|shoes|sportswear|textiles and apparel|服装|时尚|鞋
337 | furniture|home furnishings|家具
339 | toys|jewelry|jewellery|sporting goods|玩具|珠宝
44 | retail|retailer|retailers|retail chain|retail chains|stores|shops|specialty retail|department stores|e-commerce|ecommerce|online retail|零售|零售商|电商
445 | supermarket|supermarkets|grocer|grocers|grocery|food retail|food retailers|food and drug retailing|convenience stores|超市|便利店
456 | pharmacy|pharmacies|drugstore|drugstores|drug retail|药店
441 | car dealer|car dealers|auto dealers|dealerships|auto retail|汽车经销
457 | gas stations|fuel stations|加油站
42 | wholesale|wholesaler|wholesalers|distributor|distributors|trading company|trading companies|批发|分销|贸易公司
4811 | airline|airlines|air carrier|carriers|air travel|航空公司
482 | railway|railways|railroad|railroads|rail|rail transport|freight rail|铁路
483 | shipping|shipping company|shipping line|container shipping|maritime|ports|port operator|航运|港口
484 | trucking|truckload|freight|road freight|物流运输
485 | transit|bus|buses|public transport|passenger transport|公交
488 | logistics|logistics company|logistics companies|supply chain|freight forwarding|freight forwarder|airports|toll roads|物流|货代|机场
492 | courier|couriers|parcel|parcel delivery|express delivery|postal|快递|邮政
493 | warehousing|warehouses|仓储
48 | transportation|transport|transport companies|运输|交通
5132 | software|software company|software companies|saas|enterprise software|application software|cloud software|software developer|软件
5415 | it services|it consulting|software and it services|technology services|digital services|systems integrator|outsourcing|信息技术|IT服务
518 | cloud|cloud computing|data centers|data centres|hosting|web hosting|data processing|数据中心|云计算
519 | internet|internet company|internet companies|online platform|search engine|social media|互联网
51 | tech|tech company|tech companies|technology company|technology companies|科技|科技公司
517 | telecom|telecoms|telecommunications|telecommunication services|telco|telcos|telecom operator|telecom operators|mobile operator|mobile operators|wireless|broadband|cable operator|电信|通信|运营商
516 | broadcasting|broadcaster|broadcasters|television|tv|radio|media|media company|media companies|entertainment|streaming|广播|电视|传媒|媒体
513 | publishing|publisher|publishers|newspapers|books|video games|games|gaming|出版|游戏
512 | film|movies|music|studios|电影|音乐
541 | consulting|consultancy|professional services|business services|advisory|accounting|audit|legal services|law firm|engineering services|market research|advertising|marketing services|咨询|专业服务|广告
5416 | management consulting|consultants|管理咨询
5418 | advertising agency|advertising agencies|ad agency|marketing agency|广告公司
broad 311 312 315 3256 3352 3361 337 339 | consumer goods|consumer products|consumer goods company|消费品
5511 | conglomerate|conglomerates|holding company|holding companies|industrial conglomerate|industrial conglomerates|集团|控股
561 | staffing|recruitment|recruiting|temp agency|facility services|security services|outsourcing services|commercial services|人力资源|外包
562 | waste management|waste|recycling|environmental services|环保|废物处理|回收
broad 62 325412 3391 | health care|healthcare|healthcare services|health care services|health services|medical services|医疗|医疗保健|健康
622 | hospital|hospitals|clinics|医院
621 | clinics|outpatient|diagnostic labs|dental|诊所
623 | nursing homes|elderly care|senior living|养老
524114 | health insurance|managed care|managed healthcare|健康保险
61 | education|schools|universities|edtech|教育|培训
721 | hotel|hotels|resorts|hospitality|lodging|casinos|酒店
722 | restaurant|restaurants|fast food|food service|catering|coffee chains|cafes|餐饮|餐厅
713 | gambling|casino|casinos|leisure|amusement|fitness|theme parks|sports|博彩|娱乐
532 | rental|leasing|equipment rental|car rental|租赁
811 | repair services|maintenance services|维修
broad 311 312 445 3256 | consumer defensive|必需消费品
broad 44 3361 315 721 722 | 可选消费品
broad 333 336 23 48 5511 | industrial company|industrial companies|工业
broad 325 331 212 327 322 | 原材料
"""
